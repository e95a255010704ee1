// A labelled password input with a show/hide toggle, which every password input has. The toggle's
// name says what pressing it does ('Show password', 'Hide password'); a pressed state beside it would
// read as 'Hide password, pressed'.
import { useId, useState } from 'react';
import './components.css';

export interface PasswordFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  name?: string;
  describedBy?: string;
  invalid?: boolean;
}

export function PasswordField({ label, value, onChange, autoComplete, name, describedBy, invalid }: PasswordFieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="password-field">
        <input
          id={id}
          name={name}
          type={visible ? 'text' : 'password'}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoComplete={autoComplete}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
        />
        <button type="button" className="password-field__toggle" aria-controls={id} onClick={() => setVisible((shown) => !shown)}>
          {visible ? 'Hide password' : 'Show password'}
        </button>
      </div>
    </div>
  );
}
