import { Link } from 'react-router-dom';
import { useState } from 'react';
import { CodeDialog } from '../../../components/code-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { FileDrop } from '../../../components/file-drop';
import { Loading } from '../../../components/loading';
import { ModelPicker, resolveModel } from '../../../components/model-picker';
import { Tabs } from '../../../components/tabs';
import { downloadFile } from '../../../lib/download';
import type { GatewayModel } from '../../../lib/gateway-types';
import { readFileAsDataUrl } from '../../../lib/read-file';
import { useRenderedPage } from '../api/render-pdf-page';
import { OCR_MODEL, useRunOcr } from '../api/run-ocr';
import type { Granularity, OcrRequest, OcrResult } from '../ocr-types';
import { useOcrViewStore, type OcrPanelTab } from '../stores/ocr-view-store';
import type { IndexedBox } from './box-overlay';
import { OcrTablesPanel } from './ocr-tables-panel';
import { OcrTextPanel } from './ocr-text-panel';
import { OcrToolbar } from './ocr-toolbar';
import { PageViewer } from './page-viewer';
import { SchemaEditor } from './schema-editor';

const ACCEPT = 'image/png,image/jpeg,image/webp,image/tiff,image/bmp,image/gif,application/pdf,.pdf,.tif,.tiff';
const ACCEPTED_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/tiff',
  'image/bmp',
  'image/gif',
  'application/pdf',
];
const ACCEPTED_EXTENSIONS = /\.(png|jpe?g|webp|tiff?|bmp|gif|pdf)$/i;
/** The gateway's default request body limit; the base64 upload is a third larger than the file. */
export const MAX_OCR_FILE_BYTES = 36 * 1024 * 1024;

/** Why a file cannot be sent for OCR, before uploading it; null when it can. */
export function ocrFileProblem(file: File): string | null {
  if (!ACCEPTED_TYPES.includes(file.type) && !ACCEPTED_EXTENSIONS.test(file.name)) {
    return `${file.name || 'This file'} is not an image or a PDF (${file.type || 'unknown type'}). OCR reads PNG, JPEG, WebP, TIFF, BMP, GIF and PDF.`;
  }
  if (file.size > MAX_OCR_FILE_BYTES) {
    return `${file.name} is ${(file.size / 1024 / 1024).toFixed(0)} MB; the largest file OCR accepts here is ${MAX_OCR_FILE_BYTES / 1024 / 1024} MB. Split the PDF or shrink the image.`;
  }
  return null;
}

interface LoadedDocument {
  id: string;
  name: string;
  dataUrl: string;
  isPdf: boolean;
}

const PANEL_TABS: readonly { id: OcrPanelTab; label: string }[] = [
  { id: 'text', label: 'Text' },
  { id: 'tables', label: 'Tables' },
  { id: 'structured', label: 'Structured' },
  { id: 'json', label: 'Raw JSON' },
];

export function OcrInspector({ models }: { models: GatewayModel[] }) {
  const [modelChoice, setModel] = useState<string | null>(OCR_MODEL);
  const [doc, setDoc] = useState<LoadedDocument | null>(null);
  const [imageSize, setImageSize] = useState<{ width: number; height: number } | null>(null);
  const [schema, setSchema] = useState<Record<string, unknown> | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [imageBroken, setImageBroken] = useState(false);
  // The last good result of this document: a failed schema extraction must not wipe it.
  const [lastGood, setLastGood] = useState<OcrResult | null>(null);
  const [failedRun, setFailedRun] = useState<'ocr' | 'schema'>('ocr');
  const ocr = useRunOcr();
  const view = useOcrViewStore();
  const model = resolveModel(models, modelChoice);
  const installedLanguages = models.find((candidate) => candidate.id === model)?.ocr_languages;

  const [showCode, setShowCode] = useState(false);

  const buildRequest = (
    target: LoadedDocument,
    granularity: Granularity,
    withSchema: Record<string, unknown> | null,
  ): OcrRequest => {
    const request: OcrRequest = {
      model,
      image: target.dataUrl,
      return_bboxes: true,
      include_tables: true,
      granularity,
    };
    if (withSchema) Object.assign(request, { structured_output: true, schema: withSchema });
    return request;
  };
  const run = (target: LoadedDocument, granularity: Granularity, withSchema: Record<string, unknown> | null) => {
    setFailedRun(withSchema ? 'schema' : 'ocr');
    ocr.mutate(buildRequest(target, granularity, withSchema), { onSuccess: setLastGood });
  };

  const load = async (file: File) => {
    const problem = ocrFileProblem(file);
    // A new attempt: the last one's error card goes, whether this file is taken or refused.
    ocr.reset();
    setFileProblem(problem);
    if (problem) return;
    const dataUrl = await readFileAsDataUrl(file);
    const isPdf = file.type === 'application/pdf' || file.name.toLowerCase().endsWith('.pdf');
    const next = { id: crypto.randomUUID(), name: file.name || 'pasted image', dataUrl, isPdf };
    setDoc(next);
    setImageSize(null);
    setSchema(null);
    setLastGood(null);
    setImageBroken(false);
    view.resetForNewDocument();
    if (!isPdf) {
      const img = new Image();
      img.onload = () => setImageSize({ width: img.naturalWidth, height: img.naturalHeight });
      img.onerror = () => setImageBroken(true);
      img.src = dataUrl;
    }
    run(next, view.granularity, null);
  };

  const result = ocr.data ?? lastGood ?? undefined;
  const pageCount = result?.pages.length ?? 0;
  const page = result?.pages[view.page];
  const rendered = useRenderedPage(doc?.id ?? '', doc?.dataUrl ?? '', view.page, !!doc?.isPdf);
  const pageImage = doc?.isPdf ? rendered.data?.image : doc?.dataUrl;
  // Boxes are in the pixels of the page OCR saw (pages[]); the rendered PNG may have another
  // resolution, so it is drawn stretched to that size rather than setting the coordinate space.
  const pageSize = page
    ? { width: page.width, height: page.height }
    : doc?.isPdf
      ? rendered.data && { width: rendered.data.width, height: rendered.data.height }
      : imageSize;
  const boxes: IndexedBox[] = (result?.bboxes ?? [])
    .map((box, index) => ({ box, index }))
    .filter(({ box }) => (box.page ?? 0) === view.page);

  const exportName = (doc?.name ?? 'ocr').replace(/\.[^.]+$/, '');

  return (
    <div className="stack">
      <div className="row ocr-source">
        <div className="grow">
          <FileDrop
            accept={ACCEPT}
            acceptPaste
            compact={!!doc}
            label={doc ? `${doc.name} — drop, paste or pick another file` : 'Drop, paste or pick an image or PDF'}
            hint={doc ? undefined : 'PNG, JPEG, WebP, TIFF, BMP, GIF or PDF'}
            onFile={(f) => void load(f)}
          />
        </div>
        <div style={{ width: 240 }}>
          <ModelPicker models={models} value={model} onChange={setModel} />
          {installedLanguages && (
            <p className="muted small" data-testid="ocr-languages">
              Languages installed: {installedLanguages.join(', ')} (each page's language is detected).{' '}
              <Link to="/models#ocr-languages">Add a language</Link>
            </p>
          )}
        </div>
      </div>
      {doc && (
        <OcrToolbar
          pageCount={pageCount}
          busy={ocr.isPending}
          onGranularity={(g) => {
            view.setGranularity(g);
            run(doc, g, schema);
          }}
        />
      )}
      {fileProblem && (
        <div className="notice notice-error" role="alert" data-testid="ocr-file-problem">
          <span className="notice-title">This file cannot be read</span>
          <span>{fileProblem}</span>
        </div>
      )}
      {ocr.isError && (
        <ErrorNotice
          error={ocr.error}
          title={
            failedRun === 'schema' && lastGood ? 'Schema extraction failed; the OCR result below is kept' : 'OCR failed'
          }
          onRetry={() => doc && run(doc, view.granularity, schema)}
        />
      )}
      {!doc ? (
        <div className="card">
          <EmptyState icon="▣" title="Nothing to inspect yet">
            <span className="small">Every recognised word is drawn over the page, coloured by confidence.</span>
          </EmptyState>
        </div>
      ) : (
        <div className="ocr-layout">
          <section className="card ocr-page-card" aria-label="Page">
            {ocr.isPending && <Loading label="Recognising text…" />}
            {doc.isPdf && rendered.isError && (
              <ErrorNotice error={rendered.error} title="The page could not be rendered" />
            )}
            {pageImage && pageSize ? (
              <PageViewer
                imageSrc={pageImage}
                pageWidth={pageSize.width}
                pageHeight={pageSize.height}
                boxes={result ? boxes : []}
                tables={page?.tables ?? []}
              />
            ) : (
              !ocr.isPending &&
              !rendered.isError &&
              (imageBroken || (ocr.isError && !lastGood) ? (
                <p className="muted small">The page cannot be shown.</p>
              ) : (
                <Loading label="Preparing the page…" />
              ))
            )}
          </section>
          <section className="card ocr-side" aria-label="Result">
            <Tabs tabs={PANEL_TABS} value={view.tab} onChange={view.setTab} label="Result views" />
            {view.tab === 'text' &&
              (result ? (
                <OcrTextPanel boxes={boxes} granularity={view.granularity} />
              ) : (
                <p className="muted small">The text appears once OCR is done.</p>
              ))}
            {view.tab === 'tables' &&
              (result ? (
                <OcrTablesPanel tables={page?.tables ?? []} />
              ) : (
                <p className="muted small">The tables appear once OCR is done.</p>
              ))}
            {view.tab === 'structured' && (
              <div className="stack">
                <SchemaEditor
                  busy={ocr.isPending}
                  disabled={!doc}
                  onExtract={(s) => {
                    setSchema(s);
                    run(doc, view.granularity, s);
                  }}
                />
                {result?.structured_data ? (
                  <>
                    <pre className="code-block" data-testid="ocr-structured">
                      {JSON.stringify(result.structured_data, null, 2)}
                    </pre>
                    {result.structured_note && <p className="muted small">{result.structured_note}</p>}
                    {result.structured_missing && result.structured_missing.length > 0 && (
                      <ul className="small muted" data-testid="ocr-structured-missing">
                        {result.structured_missing.map((entry) => (
                          <li key={entry.field}>
                            <code>{entry.field}</code> is null: {entry.reason}
                          </li>
                        ))}
                      </ul>
                    )}
                  </>
                ) : (
                  <p className="muted small">The data extracted by the schema appears here, next to the page.</p>
                )}
              </div>
            )}
            {view.tab === 'json' &&
              (result ? (
                <pre className="code-block">{JSON.stringify(result, null, 2)}</pre>
              ) : (
                <p className="muted small">No result yet.</p>
              ))}
            {result && (
              <div className="row ocr-exports">
                <span className="small muted grow">
                  {result.bboxes.length} boxes · {pageCount} page{pageCount === 1 ? '' : 's'}
                  {page?.source === 'text_layer' && ' · from the PDF text layer'}
                </span>
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() =>
                    downloadFile(`${exportName}.ocr.json`, JSON.stringify(result, null, 2), 'application/json')
                  }
                >
                  Export JSON
                </button>
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => downloadFile(`${exportName}.txt`, result.text)}
                >
                  Export text
                </button>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setShowCode(true)}>
                  {'</>'} View code
                </button>
              </div>
            )}
          </section>
        </div>
      )}
      {showCode && doc && (
        <CodeDialog
          request={{ path: '/v1/ocr', body: { ...buildRequest(doc, view.granularity, schema) }, fileNames: [doc.name] }}
          onClose={() => setShowCode(false)}
        />
      )}
    </div>
  );
}
