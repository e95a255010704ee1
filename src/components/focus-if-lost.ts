// A ref callback for the heading of a screen that replaces another: the control that had focus is
// gone with the old screen, so the heading takes focus, unless something else already has it.
export function focusIfLost(heading: HTMLHeadingElement | null): void {
  const active = heading?.ownerDocument.activeElement;
  if (heading && (!active || active === heading.ownerDocument.body)) heading.focus();
}
