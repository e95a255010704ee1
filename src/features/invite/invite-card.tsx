// The frame of the invite screens, the same centred card as the sign-in screens: when a screen
// replaces another (validating -> form), the new heading takes focus if nothing else has it, so
// keyboard and screen-reader users start at the top of the new screen.
import type { ReactNode } from 'react';
import { focusIfLost } from '../../components/focus-if-lost.ts';
import './invite.css';

export function InviteCard({ title, children }: { title?: ReactNode; children: ReactNode }) {
  return (
    <div className="invite-screen">
      <div className="card invite-card">
        {title ? (
          <h1 ref={focusIfLost} tabIndex={-1}>
            {title}
          </h1>
        ) : null}
        {children}
      </div>
    </div>
  );
}
