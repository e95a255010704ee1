// Keeping keyboard focus where a user expects it when the screen changes under it.
import { useLayoutEffect, useRef } from 'react';

// A ref callback for the heading of a screen that replaces another: the control that had focus is
// gone with the old screen, so the heading takes focus, unless something else already has it.
// Also for a control that lost focus while disabled.
export function focusIfLost(element: HTMLElement | null): void {
  const active = element?.ownerDocument.activeElement;
  if (element && (!active || active === element.ownerDocument.body)) element.focus();
}

/**
 * For a form whose controls a pending call disables: the browser moves focus off a disabled
 * control to the page, and a keyboard user would start again from its top. Once the call is over,
 * the control that had focus when it began takes it back, unless focus has gone elsewhere (or the
 * screen with it: focusing a removed control does nothing). A control that stays disabled (Resend
 * Email, waiting out its countdown) cannot: its form's first field takes it instead.
 */
export function useFocusKeptWhilePending(pending: boolean): void {
  const focused = useRef<Element | null>(null);
  useLayoutEffect(() => {
    // Still focused here: the browser lets go of a disabled control at its next rendering.
    if (pending) focused.current = document.activeElement;
    else if (focused.current instanceof HTMLElement) {
      const control = focused.current;
      focusIfLost(control.matches(':disabled') ? (control.closest('form')?.querySelector<HTMLElement>('input:enabled') ?? null) : control);
    }
  }, [pending]);
}
