// What a browser does to a focused control once it is disabled: it lets go of its focus at its
// next rendering. jsdom does not, and its blur() ignores a disabled control, so tests do it here.
import { act } from '@testing-library/react';

export function letGoOfDisabled(control: HTMLButtonElement): void {
  act(() => {
    control.disabled = false;
    control.blur();
    control.disabled = true;
  });
}
