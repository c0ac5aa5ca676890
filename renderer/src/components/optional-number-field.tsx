interface Props {
  label: string;
  value: number | null;
  onChange(value: number | null): void;
  placeholder?: string;
  min?: number;
  max?: number;
  /** Whole numbers only (the default); false allows decimals such as amounts of money. */
  integer?: boolean;
  hint?: string;
}

/** A number input where empty means "not sent". */
export function OptionalNumberField({
  label,
  value,
  onChange,
  placeholder = 'default',
  min,
  max,
  integer = true,
  hint,
}: Props) {
  return (
    <label className="field">
      <span>{label}</span>
      <input
        className="input"
        type="number"
        inputMode={integer ? 'numeric' : 'decimal'}
        min={min}
        max={max}
        step={integer ? 1 : 'any'}
        placeholder={placeholder}
        value={value ?? ''}
        onChange={(e) => {
          if (e.target.value === '') return onChange(null);
          const n = Number(e.target.value);
          onChange(integer ? Math.trunc(n) : n);
        }}
      />
      {hint && <span className="field-hint">{hint}</span>}
    </label>
  );
}
