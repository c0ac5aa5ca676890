import { useState } from 'react';
import { CodeDialog } from '../../../components/code-dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { ModelGate } from '../../../components/model-gate';
import { ModelPicker, resolveModel } from '../../../components/model-picker';
import { PageHeader } from '../../../components/page-header';
import { SamplingFields } from '../../../components/sampling-fields';
import { StreamStatsView } from '../../../components/stream-stats-view';
import { useAccount } from '../../../lib/account-query';
import type { GatewayModel } from '../../../lib/gateway-types';
import { samplingBody, type SamplingSettings } from '../../../lib/sampling-settings';
import type { TextStreamOutcome } from '../../../lib/use-text-stream';
import { useCompletionStream, type CompletionRequest } from '../api/stream-completion';

function CompletionsPlayground({ models }: { models: GatewayModel[] }) {
  const [modelChoice, setModel] = useState<string | null>(null);
  const [prompt, setPrompt] = useState('');
  const [sampling, setSampling] = useState<SamplingSettings>({
    temperature: 0.7,
    topP: 1,
    maxTokens: 256,
    seed: null,
    presencePenalty: null,
    frequencyPenalty: null,
    stop: '',
  });
  const [outcome, setOutcome] = useState<(TextStreamOutcome & { prompt: string }) | null>(null);
  const [showCode, setShowCode] = useState(false);
  const stream = useCompletionStream();
  const currency = useAccount().data?.balance.currency;
  const model = resolveModel(models, modelChoice);

  const request: CompletionRequest = {
    model,
    prompt,
    ...samplingBody(sampling),
    stream: true,
    stream_options: { include_usage: true },
  };
  const submit = async () => {
    setOutcome(null);
    const result = await stream.run(request);
    setOutcome({ ...result, prompt });
  };
  const generated = stream.running ? stream.text : (outcome?.text ?? '');
  const shownPrompt = stream.running ? prompt : (outcome?.prompt ?? '');

  return (
    <div className="split">
      <section className="card stack" aria-label="Prompt">
        <label className="field">
          <span>Prompt</span>
          <textarea
            className="textarea mono"
            rows={8}
            value={prompt}
            placeholder="Once upon a time"
            onChange={(e) => setPrompt(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && prompt && !stream.running) void submit();
            }}
          />
        </label>
        <div className="row">
          {stream.running ? (
            <button type="button" className="btn btn-danger" onClick={stream.stop}>
              ■ Stop
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-primary"
              disabled={!prompt || !model}
              onClick={() => void submit()}
            >
              Complete
            </button>
          )}
          <span className="small faint">Ctrl+Enter</span>
          <span className="grow" />
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setShowCode(true)}>
            {'</>'} View code
          </button>
        </div>
        <div className="completion-output" aria-live="polite" aria-label="Completion">
          {shownPrompt || generated ? (
            <>
              <span className="faint">{shownPrompt}</span>
              <span data-testid="completion-text">{generated}</span>
              {stream.running && <span className="caret" aria-hidden="true" />}
            </>
          ) : (
            <span className="faint">The prompt and its continuation appear here.</span>
          )}
        </div>
        {outcome?.status === 'stopped' && <span className="badge badge-warn">stopped</span>}
        {outcome?.error && <ErrorNotice error={new Error(outcome.error)} title="The completion failed" />}
        {outcome?.stats && <StreamStatsView stats={outcome.stats} currency={currency} />}
      </section>
      <aside className="card stack" aria-label="Completion settings">
        <ModelPicker models={models} value={model} onChange={setModel} />
        <SamplingFields settings={sampling} onChange={(patch) => setSampling({ ...sampling, ...patch })} />
      </aside>
      {showCode && (
        <CodeDialog request={{ path: '/v1/completions', body: { ...request } }} onClose={() => setShowCode(false)} />
      )}
    </div>
  );
}

export function CompletionsPage() {
  return (
    <div className="page">
      <PageHeader title="Completions" description="Raw text continuation of a prompt, streamed as it is generated." />
      <ModelGate capability="completions">{(models) => <CompletionsPlayground models={models} />}</ModelGate>
    </div>
  );
}
