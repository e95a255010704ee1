// A labelled input for a six-digit one-time code (at most 6 characters, placeholder
// 'Enter 6-digit code'). No pattern, so that whatever is pasted arrives. A pasted code keeps its
// digits: the spaces and dashes that group it ('123 456', '123-456') are dropped before the length
// limit applies. Typed spaces are dropped too.
import { useId, type ClipboardEvent, type KeyboardEvent } from 'react';
import { CODE_LENGTH } from '../../machines/auth.ts';
import './components.css';

export interface CodeFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Focus the field when it appears: for screens whose only task is to enter the code. */
  focusOnMount?: boolean;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
  describedBy?: string;
  invalid?: boolean;
  name?: string;
}

const withoutSpaces = (text: string) => text.replace(/\s+/g, '');
/** A pasted code without the spaces and dashes (any Unicode dash) that group its digits. */
const withoutSeparators = (text: string) => text.replace(/[\s\p{Pd}]+/gu, '');

export function CodeField({ label, value, onChange, focusOnMount, onKeyDown, describedBy, invalid, name }: CodeFieldProps) {
  const id = useId();

  function paste(event: ClipboardEvent<HTMLInputElement>) {
    event.preventDefault();
    const input = event.currentTarget;
    const start = input.selectionStart ?? value.length;
    const end = input.selectionEnd ?? value.length;
    const pasted = withoutSeparators(event.clipboardData.getData('text'));
    onChange((value.slice(0, start) + pasted + value.slice(end)).slice(0, CODE_LENGTH));
  }

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        className="code-input"
        type="text"
        value={value}
        onChange={(event) => onChange(withoutSpaces(event.target.value))}
        onPaste={paste}
        onKeyDown={onKeyDown}
        maxLength={CODE_LENGTH}
        placeholder="Enter 6-digit code"
        inputMode="numeric"
        autoComplete="one-time-code"
        spellCheck={false}
        // Only screens whose one task is this code ask for it; the field replaces a screen the
        // user just left, so focus would otherwise fall back to the top of the page.
        // eslint-disable-next-line jsx-a11y/no-autofocus
        autoFocus={focusOnMount}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
      />
    </div>
  );
}
