import { useId, useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { LongText } from '../../../components/long-text';
import { formatCost } from '../../../lib/format';
import { useModelsWith } from '../../../lib/models-query';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';
import { useCompareModels, useReplayRequest, type ReplayAnswer } from '../api/replay-request';
import { answerText, capabilityFor, replayRefusal } from '../replay-view';
import { formatDuration } from '../waterfall-layout';

/** How many models Compare sends to at once. */
export const COMPARE_MAX = 4;

interface Props {
  entry: RequestLogEntry;
  currency: string | undefined;
  /** Opens the replayed request's own entry in the drawer. */
  onOpenRequest(id: string): void;
}

const statusClass = (status: number) => (status >= 500 ? 'badge-error' : status >= 400 ? 'badge-warn' : 'badge-ok');

/** One replayed answer: how it went (status, latency, time to first token, tokens, cost) and its text. */
function ReplayResult({
  answer,
  currency,
  onOpenRequest,
}: {
  answer: ReplayAnswer;
  currency: string | undefined;
  onOpenRequest(id: string): void;
}) {
  return (
    <article
      className="replay-result"
      aria-label={`Answer of ${answer.model ?? 'the model'}`}
      data-testid="replay-result"
    >
      <header className="row wrap replay-result-head">
        <span className={`badge ${statusClass(answer.status)}`}>{answer.status}</span>
        <span className="mono replay-result-model">{answer.model ?? '—'}</span>
      </header>
      <dl className="replay-stats">
        <div>
          <dt>Latency</dt>
          <dd>{formatDuration(answer.latency_ms)}</dd>
        </div>
        <div>
          <dt>First token</dt>
          <dd>{answer.ttft_ms !== undefined ? formatDuration(answer.ttft_ms) : 'not streamed'}</dd>
        </div>
        <div>
          <dt>Tokens in / out</dt>
          <dd>
            {answer.usage?.prompt_tokens ?? '—'} / {answer.usage?.completion_tokens ?? '—'}
          </dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>{answer.cost !== null ? formatCost(answer.cost, currency) : '—'}</dd>
        </div>
      </dl>
      {/* Model output is untrusted: plain text, never markup. */}
      <LongText as="pre" className="code-block replay-answer" testId="replay-answer" text={answerText(answer)} />
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => onOpenRequest(answer.request_id)}>
        Open this request in the log
      </button>
    </article>
  );
}

/** The request sent to 2 to 4 models at once, their answers side by side. */
function CompareDialog({ entry, currency, onOpenRequest, onClose }: Props & { onClose(): void }) {
  const models = useModelsWith(capabilityFor(entry.path) ?? 'chat');
  const [picked, setPicked] = useState<string[]>(entry.model ? [entry.model] : []);
  const compare = useCompareModels();
  const available = (models.data ?? []).filter((model) => model.state !== 'unavailable');
  const toggle = (id: string, on: boolean) =>
    setPicked(on ? [...picked, id].slice(0, COMPARE_MAX) : picked.filter((model) => model !== id));
  const ready = picked.length >= 2 && picked.length <= COMPARE_MAX;
  return (
    <Dialog title="Compare models" onClose={onClose} wide>
      <p className="muted small">
        Sends this request to each model you pick ({`2 to ${COMPARE_MAX}`}), at once, as your key: each is billed and
        logged like any request.
      </p>
      <fieldset className="compare-models">
        <legend className="small">Models</legend>
        {models.isPending ? (
          <Loading label="Reading the models…" />
        ) : (
          available.map((model) => (
            <label key={model.id} className="row small compare-model">
              <input
                type="checkbox"
                checked={picked.includes(model.id)}
                disabled={!picked.includes(model.id) && picked.length >= COMPARE_MAX}
                onChange={(event) => toggle(model.id, event.target.checked)}
              />
              <span className="mono">{model.id}</span>
            </label>
          ))
        )}
      </fieldset>
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={!ready || compare.isPending}
          onClick={() => compare.mutate({ id: entry.id, models: picked })}
        >
          {compare.isPending ? 'Sending…' : `Send to ${picked.length} models`}
        </button>
        {!ready && <span className="muted small">Pick 2 to {COMPARE_MAX} models.</span>}
      </div>
      {compare.isError && <ErrorNotice error={compare.error} title="The comparison failed" />}
      {compare.data && (
        <div
          className="compare-grid"
          style={{ gridTemplateColumns: `repeat(${compare.data.length}, minmax(0, 1fr))` }}
          data-testid="compare-results"
        >
          {compare.data.map((result, index) =>
            result.status === 'fulfilled' ? (
              <ReplayResult
                key={index}
                answer={result.value}
                currency={currency}
                onOpenRequest={(id) => {
                  onClose();
                  onOpenRequest(id);
                }}
              />
            ) : (
              <ErrorNotice key={index} error={result.reason} title={`${picked[index] ?? 'This model'} was not asked`} />
            ),
          )}
        </div>
      )}
    </Dialog>
  );
}

/**
 * Replay (the same model or another) and Compare (2 to 4 models side by side) for a logged request;
 * where it cannot be sent again, the buttons say why.
 */
export function ReplayPanel({ entry, currency, onOpenRequest }: Props) {
  const refusal = replayRefusal(entry);
  const why = useId();
  const models = useModelsWith(capabilityFor(entry.path) ?? 'chat');
  const [model, setModel] = useState('');
  const [comparing, setComparing] = useState(false);
  const replay = useReplayRequest();
  const others = (models.data ?? []).filter((m) => m.id !== entry.model && m.state !== 'unavailable');
  return (
    <section className="stack replay-panel" aria-label="Replay">
      <h3 className="card-title">Replay and compare</h3>
      <div className="row wrap">
        {!refusal && (
          <label className="row small replay-model">
            <span>Model</span>
            <select
              className="select"
              aria-label="Model to replay with"
              value={model}
              onChange={(event) => setModel(event.target.value)}
            >
              <option value="">Same model{entry.model ? ` (${entry.model})` : ''}</option>
              {others.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.id}
                </option>
              ))}
            </select>
          </label>
        )}
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={refusal !== null || replay.isPending}
          aria-describedby={refusal ? why : undefined}
          onClick={() => replay.mutate({ id: entry.id, ...(model ? { model } : {}) })}
        >
          {replay.isPending ? 'Replaying…' : 'Replay'}
        </button>
        <button
          type="button"
          className="btn btn-sm"
          disabled={refusal !== null}
          aria-describedby={refusal ? why : undefined}
          onClick={() => setComparing(true)}
        >
          Compare models…
        </button>
      </div>
      {refusal ? (
        <p id={why} className="muted small" data-testid="replay-unavailable">
          {refusal}
        </p>
      ) : (
        <p className="muted small">
          Sends the logged body again as your key: billed, limited and logged like any request.
        </p>
      )}
      {replay.isError && <ErrorNotice error={replay.error} title="The request could not be replayed" />}
      {replay.data && <ReplayResult answer={replay.data} currency={currency} onOpenRequest={onOpenRequest} />}
      {comparing && (
        <CompareDialog
          entry={entry}
          currency={currency}
          onOpenRequest={onOpenRequest}
          onClose={() => setComparing(false)}
        />
      )}
    </section>
  );
}
