interface Props {
  label: string;
  value: number | null;
  onChange(value: number | null): void;
  placeholder?: string;
  min?: number;
}

/** An integer input where empty means "not sent". */
export function OptionalNumberField({ label, value, onChange, placeholder = 'default', min }: Props) {
  return (
    <label className="field">
      <span>{label}</span>
      <input
        className="input"
        type="number"
        inputMode="numeric"
        min={min}
        step={1}
        placeholder={placeholder}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? null : Math.trunc(Number(e.target.value)))}
      />
    </label>
  );
}
