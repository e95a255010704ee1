// Keeping keyboard focus where a user expects it when the screen changes under it.
import { useLayoutEffect, useRef } from 'react';

// A ref callback for the heading of a screen that replaces another: the control that had focus is
// gone with the old screen, so the heading takes focus, unless something else already has it.
export function focusIfLost(heading: HTMLHeadingElement | null): void {
  const active = heading?.ownerDocument.activeElement;
  if (heading && (!active || active === heading.ownerDocument.body)) heading.focus();
}

/**
 * For a form whose controls a pending call disables: the browser moves focus off a disabled
 * control to the page, and a keyboard user would start again from its top. Once the call is over
 * (and the screen still shows), the control that had focus when it began takes it back, unless
 * focus has gone elsewhere meanwhile.
 */
export function useFocusKeptWhilePending(pending: boolean): void {
  const focused = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (pending) {
      // Still focused here: the browser lets go of a disabled control at its next rendering.
      const active = document.activeElement;
      focused.current = active instanceof HTMLElement ? active : null;
      return;
    }
    const control = focused.current;
    focused.current = null;
    const active = control?.ownerDocument.activeElement;
    if (control?.isConnected && (!active || active === control.ownerDocument.body)) control.focus();
  }, [pending]);
}
