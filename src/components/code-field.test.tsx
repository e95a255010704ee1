// The six-digit code field: a pasted code keeps its digits whether it comes grouped with a space
// or a dash ('123 456', '123-456'); typing drops spaces as before; at most six characters.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { CodeField } from './code-field.tsx';

function Field({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return <CodeField label="Authentication Code" value={value} onChange={setValue} />;
}

function setup(initial?: string) {
  const user = userEvent.setup();
  render(<Field initial={initial} />);
  return { user, field: screen.getByLabelText('Authentication Code') };
}

describe('CodeField', () => {
  it.each([
    ['123 456', 'a space'],
    ['123-456', 'a dash'],
    ['123 - 456', 'a dash between spaces'],
    ['123\u2013456', 'an en dash'],
    ['12 34 56', 'spaces in pairs'],
    [' 123456\n', 'spaces and a line break around it'],
  ])('keeps the digits of a code pasted as %j (%s)', async (pasted) => {
    const { user, field } = setup();
    await user.click(field);
    await user.paste(pasted);
    expect(field).toHaveValue('123456');
  });

  it('puts a pasted code where the selection is, and keeps at most six characters', async () => {
    const { user, field } = setup('99');
    await user.click(field);
    (field as HTMLInputElement).setSelectionRange(0, 2);
    await user.paste('12-34');
    expect(field).toHaveValue('1234');
    await user.paste('567 890');
    expect(field).toHaveValue('123456');
  });

  it('drops typed spaces, as it always has, and stops at six characters', async () => {
    const { user, field } = setup();
    await user.type(field, '12 34 567');
    expect(field).toHaveValue('123456');
  });
});
