import { useState, type FormEvent } from 'react';
import { CodeDialog } from '../../../components/code-dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { FileDrop } from '../../../components/file-drop';
import { MarkdownView } from '../../../components/markdown-view';
import { ModelPicker, resolveModel } from '../../../components/model-picker';
import type { GatewayModel } from '../../../lib/gateway-types';
import { readFileAsDataUrl } from '../../../lib/read-file';
import { useAnalyzeImage } from '../api/analyze-image';

export function AnalyzePanel({ models }: { models: GatewayModel[] }) {
  const [modelChoice, setModel] = useState<string | null>(null);
  const [image, setImage] = useState<string | null>(null);
  const [prompt, setPrompt] = useState('Describe this image.');
  const [showCode, setShowCode] = useState(false);
  const analyze = useAnalyzeImage();
  const model = resolveModel(models, modelChoice);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (image) analyze.mutate({ model, image, prompt });
  };
  return (
    <div className="two-col">
      <form className="card stack" onSubmit={submit} aria-label="Analyse">
        <FileDrop
          accept="image/*"
          acceptPaste
          compact={!!image}
          label={image ? 'Pick another image' : 'Drop, paste or pick an image'}
          onFile={(f) => void readFileAsDataUrl(f).then(setImage)}
        />
        {image && <img src={image} alt="To analyse" className="analyze-preview" />}
        <label className="field">
          <span>Prompt</span>
          <textarea className="textarea" rows={2} value={prompt} onChange={(e) => setPrompt(e.target.value)} />
        </label>
        <div className="row" style={{ alignItems: 'flex-end' }}>
          <div className="grow">
            <ModelPicker models={models} value={model} onChange={setModel} />
          </div>
          <button type="button" className="btn btn-ghost" disabled={!image} onClick={() => setShowCode(true)}>
            {'</>'} View code
          </button>
          <button type="submit" className="btn btn-primary" disabled={!image || !prompt.trim() || analyze.isPending}>
            {analyze.isPending ? 'Analysing…' : 'Analyse'}
          </button>
        </div>
      </form>
      {showCode && image && (
        <CodeDialog
          request={{ path: '/v1/vision/analyze', body: { model, image, prompt } }}
          onClose={() => setShowCode(false)}
        />
      )}
      <section className="card" aria-label="Analysis">
        <div className="card-title">Analysis</div>
        {analyze.isError && <ErrorNotice error={analyze.error} title="Analysis failed" />}
        {analyze.data ? (
          <MarkdownView source={analyze.data.analysis} />
        ) : (
          <p className="muted small">The model's answer appears here.</p>
        )}
      </section>
    </div>
  );
}
