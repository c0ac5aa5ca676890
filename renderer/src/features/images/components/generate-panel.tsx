import { useEffect, useState, type FormEvent } from 'react';
import { CodeDialog } from '../../../components/code-dialog';
import { Dialog } from '../../../components/dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { ModelPicker, resolveModel } from '../../../components/model-picker';
import { formatBytes } from '../../../lib/format';
import type { GatewayModel } from '../../../lib/gateway-types';
import type { GenerateImagesResponse } from '../images-types';
import { useGenerateImages } from '../api/generate-images';
import { useImageFiles } from '../api/list-image-files';
import { GatewayImage } from './gateway-image';

/** Offered when a gateway does not say which sizes a model accepts (older gateways). */
const FALLBACK_SIZES = ['256x256', '512x512', '1024x1024'];
const FALLBACK_MAX_IMAGES = 4;

export function GeneratePanel({ models }: { models: GatewayModel[] }) {
  const [modelChoice, setModel] = useState<string | null>('svc-vision-3-1-2505');
  const [prompt, setPrompt] = useState('');
  const [size, setSize] = useState('1024x1024');
  const [n, setN] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const [showCode, setShowCode] = useState(false);
  const generate = useGenerateImages();
  const history = useImageFiles();
  const model = resolveModel(models, modelChoice);
  const selected = models.find((m) => m.id === model);
  const sizes = selected?.image_sizes?.length ? selected.image_sizes : FALLBACK_SIZES;
  const maxImages = selected?.max_images ?? FALLBACK_MAX_IMAGES;
  // The last good results stay on screen when a later attempt fails.
  const [shown, setShown] = useState<GenerateImagesResponse | null>(null);
  useEffect(() => {
    if (generate.data) setShown(generate.data);
  }, [generate.data]);
  useEffect(() => {
    if (!sizes.includes(size)) setSize(sizes.includes('1024x1024') ? '1024x1024' : sizes[0]);
    if (n > maxImages) setN(maxImages);
  }, [sizes, size, n, maxImages]);

  const request = { model, prompt, size, n, response_format: 'url' as const };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    generate.mutate(request);
  };

  return (
    <div className="split">
      <div className="stack">
        <form className="card stack" onSubmit={submit} aria-label="Generate">
          <label className="field">
            <span>Prompt</span>
            <textarea
              className="textarea"
              rows={3}
              value={prompt}
              placeholder="A lighthouse at dusk, watercolour"
              onChange={(e) => setPrompt(e.target.value)}
            />
          </label>
          <div className="row" style={{ alignItems: 'flex-end' }}>
            <div style={{ width: 220 }}>
              <ModelPicker models={models} value={model} onChange={setModel} />
            </div>
            <label className="field" style={{ width: 140 }}>
              <span>Size</span>
              <select className="select" value={size} onChange={(e) => setSize(e.target.value)}>
                {sizes.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
            <label className="field" style={{ width: 90 }}>
              <span>Count</span>
              <input
                className="input"
                type="number"
                min={1}
                max={maxImages}
                value={n}
                onChange={(e) => setN(Math.min(maxImages, Math.max(1, Number(e.target.value) || 1)))}
              />
            </label>
            <span className="grow" />
            <button type="button" className="btn btn-ghost" onClick={() => setShowCode(true)}>
              {'</>'} View code
            </button>
            <button type="submit" className="btn btn-primary" disabled={!prompt.trim() || !model || generate.isPending}>
              {generate.isPending ? 'Generating…' : 'Generate'}
            </button>
          </div>
        </form>
        {generate.isError && <ErrorNotice error={generate.error} title="Image generation failed" />}
        {showCode && (
          <CodeDialog
            request={{ path: '/v1/vision/generate', body: { ...request } }}
            onClose={() => setShowCode(false)}
          />
        )}
        <section className="card" aria-label="Results">
          <div className="card-title">Results</div>
          {generate.isPending && <Loading label="Generating…" />}
          {shown ? (
            <div className="gallery">
              {shown.data.map((image, i) => (
                <GatewayImage
                  key={`${shown.id}-${i}`}
                  image={image}
                  alt={`Generated image ${i + 1}`}
                  name={`${shown.id}-${i + 1}.png`}
                  onOpen={setOpen}
                />
              ))}
            </div>
          ) : generate.isPending ? null : (
            <EmptyState icon="▨" title="No images yet">
              <span className="small">Describe an image and generate it.</span>
            </EmptyState>
          )}
        </section>
      </div>
      <aside className="card stack" aria-label="History">
        <div className="card-title">History</div>
        {history.isPending && <Loading />}
        {history.isError && <ErrorNotice error={history.error} title="History unavailable" />}
        {history.data && history.data.data.length === 0 && (
          <p className="muted small">Generated images are kept here.</p>
        )}
        <div className="gallery gallery-small">
          {history.data?.data.map((f) => (
            <div
              key={f.id}
              title={`${f.filename} · ${formatBytes(f.bytes)} · ${new Date(f.created_at * 1000).toLocaleString()}`}
            >
              <GatewayImage
                image={{ url: `/v1/files/${f.id}/content` }}
                alt={f.filename}
                name={f.filename}
                onOpen={setOpen}
              />
            </div>
          ))}
        </div>
      </aside>
      {open && (
        <Dialog title="Image" onClose={() => setOpen(null)} wide>
          <img src={open} alt="Full size" className="lightbox-image" />
        </Dialog>
      )}
    </div>
  );
}
