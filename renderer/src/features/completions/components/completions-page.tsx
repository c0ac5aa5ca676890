import { useState } from 'react';
import { CodeDialog } from '../../../components/code-dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { ModelGate } from '../../../components/model-gate';
import { ModelPicker, resolveModel } from '../../../components/model-picker';
import { OptionalNumberField } from '../../../components/optional-number-field';
import { PageHeader } from '../../../components/page-header';
import { SliderField } from '../../../components/slider-field';
import { StreamStatsView } from '../../../components/stream-stats-view';
import { useAccount } from '../../../lib/account-query';
import type { GatewayModel } from '../../../lib/gateway-types';
import type { TextStreamOutcome } from '../../../lib/use-text-stream';
import { useCompletionStream, type CompletionRequest } from '../api/stream-completion';

function CompletionsPlayground({ models }: { models: GatewayModel[] }) {
  const [modelChoice, setModel] = useState<string | null>(null);
  const [prompt, setPrompt] = useState('');
  const [maxTokens, setMaxTokens] = useState<number | null>(256);
  const [temperature, setTemperature] = useState(0.7);
  const [topP, setTopP] = useState(1);
  const [seed, setSeed] = useState<number | null>(null);
  const [presencePenalty, setPresencePenalty] = useState<number | null>(null);
  const [frequencyPenalty, setFrequencyPenalty] = useState<number | null>(null);
  const [stopText, setStopText] = useState('');
  const [outcome, setOutcome] = useState<(TextStreamOutcome & { prompt: string }) | null>(null);
  const [showCode, setShowCode] = useState(false);
  const stream = useCompletionStream();
  const currency = useAccount().data?.balance.currency;
  const model = resolveModel(models, modelChoice);

  const stop = stopText.split('\n').filter((line) => line.length > 0);
  const request: CompletionRequest = {
    model,
    prompt,
    ...(maxTokens !== null ? { max_tokens: maxTokens } : {}),
    temperature,
    top_p: topP,
    ...(stop.length ? { stop } : {}),
    ...(seed !== null ? { seed } : {}),
    ...(presencePenalty !== null ? { presence_penalty: presencePenalty } : {}),
    ...(frequencyPenalty !== null ? { frequency_penalty: frequencyPenalty } : {}),
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
        <SliderField label="Temperature" value={temperature} min={0} max={2} step={0.05} onChange={setTemperature} />
        <SliderField label="Top P" value={topP} min={0} max={1} step={0.01} onChange={setTopP} />
        <div className="two-col">
          <OptionalNumberField label="Max tokens" min={1} value={maxTokens} onChange={setMaxTokens} />
          <OptionalNumberField label="Seed" value={seed} placeholder="random" onChange={setSeed} />
        </div>
        <div className="two-col">
          <OptionalNumberField
            label="Presence penalty"
            min={-2}
            max={2}
            integer={false}
            value={presencePenalty}
            onChange={setPresencePenalty}
          />
          <OptionalNumberField
            label="Frequency penalty"
            min={-2}
            max={2}
            integer={false}
            value={frequencyPenalty}
            onChange={setFrequencyPenalty}
          />
        </div>
        <label className="field">
          <span>Stop sequences</span>
          <textarea
            className="textarea mono"
            rows={2}
            placeholder="one per line"
            value={stopText}
            onChange={(e) => setStopText(e.target.value)}
          />
        </label>
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
