import { useEffect, useState } from 'react';
import { MarkdownView } from '../../../components/markdown-view';
import { ModelPicker } from '../../../components/model-picker';
import { StreamStatsView } from '../../../components/stream-stats-view';
import type { TextStreamOutcome } from '../../../lib/use-text-stream';
import type { GatewayModel } from '../../../lib/gateway-types';
import { useLoggedCost } from '../api/get-logged-cost';
import { useChatStream } from '../api/stream-chat-completion';
import type { ChatCompletionRequest } from '../chat-types';

/** One send of the compare mode: every pane streams its own answer to the same request (its model aside). */
export interface CompareRound {
  id: number;
  /** The request of every pane; each sends it with its own model. */
  request: ChatCompletionRequest;
}

interface Props {
  index: number;
  model: string;
  models: GatewayModel[];
  round: CompareRound | null;
  stopCount: number;
  currency?: string;
  canRemove: boolean;
  onModelChange(model: string): void;
  onRemove(): void;
  onRunningChange(running: boolean): void;
  /** Saves the round's prompt with this pane's answer as the reference. */
  onSaveAnswer(answer: string): void;
}

/** A model's column of the compare mode: its own /v1/chat/completions stream, time to first token, speed, tokens and cost. */
export function ComparePane(props: Props) {
  const { index, model, models, round, stopCount, currency, canRemove } = props;
  const { onModelChange, onRemove, onRunningChange, onSaveAnswer } = props;
  const stream = useChatStream();
  const [outcome, setOutcome] = useState<TextStreamOutcome | null>(null);
  const { run, stop, running } = stream;

  useEffect(() => {
    if (!round) return;
    setOutcome(null);
    void run({ ...round.request, model }).then(setOutcome);
    // Only a new round starts a stream: picking another model waits for the next send.
  }, [round]);
  useEffect(() => {
    if (stopCount > 0) stop();
  }, [stopCount, stop]);
  useEffect(() => onRunningChange(running), [running, onRunningChange]);

  const loggedCost = useLoggedCost(
    outcome?.status === 'done' && outcome.stats?.cost === null ? outcome.stats.requestId : null,
  );
  const stats = outcome?.stats && { ...outcome.stats, cost: outcome.stats.cost ?? loggedCost.data ?? null };
  const text = running ? stream.text : (outcome?.text ?? '');
  return (
    <section className="card compare-pane stack" aria-label={`Answer ${index + 1}`} data-status={outcome?.status}>
      <div className="row compare-pane-head">
        <div className="grow">
          <ModelPicker label={`Model ${index + 1}`} models={models} value={model} onChange={onModelChange} />
        </div>
        <button
          type="button"
          className="btn btn-ghost btn-sm btn-icon"
          aria-label={`Remove model ${index + 1}`}
          disabled={!canRemove || running}
          onClick={onRemove}
        >
          ✕
        </button>
      </div>
      <div className="compare-answer">
        {text ? (
          <MarkdownView source={text} />
        ) : running ? (
          <span className="typing" aria-label="Waiting for the first token">
            <span />
            <span />
            <span />
          </span>
        ) : (
          <span className="small muted">{round ? '' : 'The answer appears here.'}</span>
        )}
        {outcome?.status === 'error' && (
          <div className="notice notice-error small" role="alert">
            {outcome.error}
          </div>
        )}
        {outcome?.status === 'stopped' && <span className="badge badge-warn">stopped</span>}
      </div>
      {!running && stats && <StreamStatsView stats={stats} currency={currency} />}
      {!running && outcome?.status === 'done' && outcome.text && (
        <div className="row">
          <button
            type="button"
            className="btn btn-sm"
            aria-label={`Save the prompt with answer ${index + 1} as an eval item`}
            title="The prompt becomes an eval item, with this answer as its reference"
            onClick={() => onSaveAnswer(outcome.text)}
          >
            Save as eval item
          </button>
        </div>
      )}
    </section>
  );
}
