import type { GatewayModel } from '../lib/gateway-types';

interface Props {
  models: GatewayModel[];
  value: string;
  onChange(id: string): void;
  label?: string;
}

const STATE_LABEL: Record<GatewayModel['state'], string> = {
  ready: '',
  cold: ' (cold)',
  loading: ' (loading)',
  unavailable: ' (unavailable)',
};

export function ModelPicker({ models, value, onChange, label = 'Model' }: Props) {
  const known = models.some((m) => m.id === value);
  return (
    <label className="field">
      <span>{label}</span>
      <select className="select" value={known ? value : ''} onChange={(e) => onChange(e.target.value)}>
        {!known && (
          <option value="" disabled>
            Choose a model
          </option>
        )}
        {models.map((m) => (
          <option key={m.id} value={m.id} disabled={m.state === 'unavailable'}>
            {m.id}
            {STATE_LABEL[m.state]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The stored choice when it is still offered, else the first ready model, else the first one. */
export function resolveModel(models: GatewayModel[], preferred: string | null | undefined): string {
  if (preferred && models.some((m) => m.id === preferred)) return preferred;
  return (models.find((m) => m.state === 'ready') ?? models[0])?.id ?? '';
}
