// A labelled input for text taken as typed (a username, an e-mail address, a password): the
// browser neither capitalises, corrects nor spell-checks it. Every password input has a show/hide
// toggle; its name says what pressing it does ('Show password', 'Hide password'), since a pressed
// state beside it would read as 'Hide password, pressed'.
import { useId, useState } from 'react';
import './components.css';

export interface TextFieldProps {
  label: string;
  /** 'text' unless said. */
  type?: 'text' | 'email' | 'password';
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'username' | 'email' | 'current-password' | 'new-password';
  name?: string;
  describedBy?: string;
  invalid?: boolean;
}

export function TextField({ label, type = 'text', value, onChange, autoComplete, name, describedBy, invalid }: TextFieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  const input = (
    <input
      id={id}
      name={name}
      type={visible ? 'text' : type}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      autoComplete={autoComplete}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
    />
  );
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {type === 'password' ? (
        <div className="password-field">
          {input}
          <button type="button" className="password-field__toggle" aria-controls={id} onClick={() => setVisible(!visible)}>
            {visible ? 'Hide password' : 'Show password'}
          </button>
        </div>
      ) : (
        input
      )}
    </div>
  );
}
