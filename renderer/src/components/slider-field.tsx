import { useId } from 'react';

interface Props {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange(value: number): void;
  hint?: string;
}

/** A labelled range input with its value shown and editable as a number. */
export function SliderField({ label, value, min, max, step, onChange, hint }: Props) {
  const id = useId();
  const clamp = (v: number) => Math.min(max, Math.max(min, v));
  return (
    <div className="field">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        <input
          className="input slider-value"
          type="number"
          aria-label={`${label} value`}
          value={value}
          min={min}
          max={max}
          step={step}
          onChange={(e) => e.target.value !== '' && onChange(clamp(Number(e.target.value)))}
        />
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      {hint && <span className="field-hint">{hint}</span>}
    </div>
  );
}
