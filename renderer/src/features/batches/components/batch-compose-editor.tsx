import type { ComposedRequest } from '../build-batch-jsonl';

interface Props {
  requests: ComposedRequest[];
  onChange(requests: ComposedRequest[]): void;
}

/** Rows of (custom id, prompt); each non-empty prompt becomes one line of the batch. */
export function BatchComposeEditor({ requests, onChange }: Props) {
  const set = (index: number, change: Partial<ComposedRequest>) =>
    onChange(requests.map((r, i) => (i === index ? { ...r, ...change } : r)));
  return (
    <div className="stack batch-rows">
      {requests.map((r, i) => (
        <div className="batch-row" key={i}>
          <input
            className="input mono"
            aria-label={`Custom id ${i + 1}`}
            placeholder={`request-${i + 1}`}
            value={r.customId}
            onChange={(e) => set(i, { customId: e.target.value })}
          />
          <input
            className="input"
            aria-label={`Prompt ${i + 1}`}
            placeholder="Prompt"
            value={r.prompt}
            onChange={(e) => set(i, { prompt: e.target.value })}
          />
          <button
            type="button"
            className="btn btn-ghost btn-icon"
            aria-label={`Remove request ${i + 1}`}
            disabled={requests.length === 1}
            onClick={() => onChange(requests.filter((_, j) => j !== i))}
          >
            ✕
          </button>
        </div>
      ))}
      <div>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => onChange([...requests, { customId: '', prompt: '' }])}
        >
          + Add a request
        </button>
      </div>
    </div>
  );
}
