// Focus kept through a pending call: the control a call disabled takes focus back once the call is
// over, unless the user has moved on meanwhile.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { letGoOfDisabled } from '../../tests/utils/focus.ts';
import { useFocusKeptWhilePending } from './focus-if-lost.ts';

/** A form whose Save makes `call`, and is disabled until it is over. */
function SaveForm({ call }: { call: () => Promise<void> }) {
  const [pending, setPending] = useState(false);
  useFocusKeptWhilePending(pending);
  const save = () => {
    setPending(true);
    void call().then(() => setPending(false));
  };
  return (
    <form>
      <label>
        Name <input />
      </label>
      <button type="button" disabled={pending} onClick={save}>
        Save
      </button>
    </form>
  );
}

/** Presses Save from the keyboard; the browser then lets go of the disabled button. */
async function startCall() {
  const user = userEvent.setup();
  let finish: () => void = () => {};
  render(<SaveForm call={() => new Promise((resolve) => (finish = resolve))} />);
  const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save' });
  await user.tab();
  await user.tab();
  expect(save).toHaveFocus();
  await user.keyboard('{Enter}');
  expect(save).toBeDisabled();
  letGoOfDisabled(save);
  const finishCall = () =>
    act(() => {
      finish();
      return Promise.resolve();
    });
  return { user, save, finishCall };
}

describe('useFocusKeptWhilePending', () => {
  it('gives focus back to the control that had it once the call is over', async () => {
    const { save, finishCall } = await startCall();
    expect(document.body).toHaveFocus();
    await finishCall();
    expect(save).toBeEnabled();
    expect(save).toHaveFocus();
  });

  it('leaves focus where the user has moved it meanwhile', async () => {
    const { user, finishCall } = await startCall();
    await user.click(screen.getByLabelText('Name'));
    await finishCall();
    expect(screen.getByLabelText('Name')).toHaveFocus();
  });
});
