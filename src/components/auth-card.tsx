// The frame of every screen before the portal (sign-in, 2FA, joining by invite): a centred card
// with the screen's heading. When a screen replaces another, the control that had focus is gone;
// the new heading takes focus then, so keyboard and screen-reader users start at the top of the
// new screen (a field that asks for focus itself, such as a code input, still gets it).
import type { ReactNode } from 'react';
import { focusIfLost } from './focus-if-lost.ts';
import './components.css';

export function AuthCard({ title, children }: { title?: ReactNode; children: ReactNode }) {
  return (
    <div className="auth-screen">
      <div className="card auth-card">
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
