import type { InputHTMLAttributes } from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'className'>;

/** A labelled one-line input of a form (monospace unless `mono` is false) whose value is a string. */
export function TextField({
  label,
  value,
  onChange,
  mono = true,
  ...input
}: InputProps & { label: string; value: string; onChange(value: string): void; mono?: boolean }) {
  return (
    <label className="field">
      <span>{label}</span>
      <input
        className={mono ? 'input mono' : 'input'}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...input}
      />
    </label>
  );
}

/**
 * The id of a new settings entry (a provider, an MCP server): letters, digits, dot, dash and
 * underscore; fixed once the entry exists (`editing`), and focused first when it is new.
 */
export function IdField({
  label,
  value,
  onChange,
  editing,
  placeholder,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  editing: boolean;
  placeholder: string;
}) {
  return (
    <TextField
      label={label}
      value={value}
      onChange={onChange}
      required
      maxLength={100}
      pattern="[A-Za-z0-9_.\-]+"
      title="Letters, digits, dot, dash and underscore"
      disabled={editing}
      placeholder={placeholder}
      autoFocus={!editing}
    />
  );
}
