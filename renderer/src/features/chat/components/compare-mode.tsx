import { useCallback, useState, type FormEvent } from 'react';
import { SamplingFields } from '../../../components/sampling-fields';
import { useAccount } from '../../../lib/account-query';
import { useEvalDraftStore } from '../../../lib/eval-draft-store';
import type { GatewayModel } from '../../../lib/gateway-types';
import type { SamplingSettings } from '../../../lib/sampling-settings';
import { buildChatRequest } from '../build-chat-request';
import { createMessage, DEFAULT_SETTINGS } from '../stores/conversations-store';
import { ComparePane, type CompareRound } from './compare-pane';
import './compare.css';

const MIN_PANES = 2;
const MAX_PANES = 4;

interface Pane {
  id: number;
  model: string;
}

/** The first `count` models, the ready ones first; the same model again when there are fewer. */
function initialPanes(models: GatewayModel[]): Pane[] {
  const ordered = [...models.filter((m) => m.state === 'ready'), ...models.filter((m) => m.state !== 'ready')];
  return Array.from({ length: MIN_PANES }, (_, i) => ({ id: i, model: ordered[i % ordered.length]?.id ?? '' }));
}

/** One prompt, 2 to 4 models answering side by side, each on its own stream; any prompt can become an eval item. */
export function CompareMode({ models }: { models: GatewayModel[] }) {
  const [panes, setPanes] = useState<Pane[]>(() => initialPanes(models));
  const [system, setSystem] = useState('');
  const [sampling, setSampling] = useState<SamplingSettings>(DEFAULT_SETTINGS);
  const [prompt, setPrompt] = useState('');
  const [round, setRound] = useState<CompareRound | null>(null);
  const [sentPrompt, setSentPrompt] = useState('');
  const [stopCount, setStopCount] = useState(0);
  const [running, setRunning] = useState<Record<number, boolean>>({});
  const [saved, setSaved] = useState<string | null>(null);
  const addToDraft = useEvalDraftStore((s) => s.add);
  const draftSize = useEvalDraftStore((s) => s.items.length);
  const currency = useAccount().data?.balance.currency;
  const anyRunning = Object.values(running).some(Boolean);

  const setPaneRunning = useCallback(
    (id: number, value: boolean) =>
      setRunning((current) => (current[id] === value ? current : { ...current, [id]: value })),
    [],
  );
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!prompt.trim() || anyRunning) return;
    // Each pane puts its own model in.
    const request = buildChatRequest({ ...DEFAULT_SETTINGS, ...sampling, model: '', system }, [
      createMessage('user', prompt),
    ]);
    setSentPrompt(prompt);
    setSaved(null);
    setRound({ id: (round?.id ?? 0) + 1, request });
  };
  const save = (expected?: string) => {
    addToDraft({ input: sentPrompt, ...(expected !== undefined ? { expected } : {}) });
    setSaved(
      expected === undefined
        ? 'The prompt was saved as an eval item.'
        : 'The prompt was saved as an eval item, with this answer as its reference.',
    );
  };

  return (
    <div className="split chat-layout">
      <div className="stack">
        <form className="card stack" onSubmit={send} aria-label="Compare prompt">
          <textarea
            className="textarea"
            aria-label="Prompt for every model"
            rows={3}
            placeholder="One prompt, sent to every model at once (Enter to send, Shift+Enter for a new line)"
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) send(e);
            }}
          />
          <div className="row">
            <button
              type="button"
              className="btn btn-sm"
              disabled={panes.length >= MAX_PANES || anyRunning}
              onClick={() =>
                setPanes([...panes, { id: Math.max(...panes.map((p) => p.id)) + 1, model: panes.at(-1)?.model ?? '' }])
              }
            >
              + Add a model
            </button>
            {round && !anyRunning && (
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => save()}>
                Save the prompt as an eval item
              </button>
            )}
            <span className="grow" />
            {anyRunning ? (
              <button type="button" className="btn btn-danger" onClick={() => setStopCount(stopCount + 1)}>
                ■ Stop all
              </button>
            ) : (
              <button
                type="submit"
                className="btn btn-primary"
                disabled={!prompt.trim() || panes.some((p) => !p.model)}
              >
                Send to {panes.length} models
              </button>
            )}
          </div>
          {saved && (
            <p className="small" role="status">
              {saved} The Evals page's “From the playground” tab has {draftSize} item{draftSize === 1 ? '' : 's'}.
            </p>
          )}
        </form>
        <div className={`compare-panes compare-panes-${panes.length}`}>
          {panes.map((pane, index) => (
            <ComparePane
              key={pane.id}
              index={index}
              model={pane.model}
              models={models}
              round={round}
              stopCount={stopCount}
              currency={currency}
              canRemove={panes.length > MIN_PANES}
              onModelChange={(model) => setPanes(panes.map((p) => (p.id === pane.id ? { ...p, model } : p)))}
              onRemove={() => setPanes(panes.filter((p) => p.id !== pane.id))}
              onRunningChange={(value) => setPaneRunning(pane.id, value)}
              onSaveAnswer={save}
            />
          ))}
        </div>
      </div>
      <aside className="card stack" aria-label="Compare settings">
        <label className="field">
          <span>System prompt</span>
          <textarea
            className="textarea"
            rows={3}
            placeholder="The same for every model"
            value={system}
            onChange={(e) => setSystem(e.target.value)}
          />
        </label>
        <SamplingFields settings={sampling} onChange={(patch) => setSampling({ ...sampling, ...patch })} />
      </aside>
    </div>
  );
}
