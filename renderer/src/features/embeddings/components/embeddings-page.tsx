import { useMemo, useState } from 'react';
import { CodeDialog } from '../../../components/code-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { ModelGate } from '../../../components/model-gate';
import { ModelPicker, resolveModel } from '../../../components/model-picker';
import { PageHeader } from '../../../components/page-header';
import { downloadFile } from '../../../lib/download';
import type { GatewayModel } from '../../../lib/gateway-types';
import { useCreateEmbeddings } from '../api/create-embeddings';
import { cosineSimilarityMatrix } from '../cosine-similarity';
import { vectorsToCsv, vectorsToJson, type EmbeddedText } from '../vector-export';
import { SimilarityHeatmap } from './similarity-heatmap';

const EXAMPLES = ['The cat sat on the mat.', 'A kitten is resting on a rug.', 'Quarterly revenue grew by 12 percent.'];

function EmbeddingsPlayground({ models }: { models: GatewayModel[] }) {
  const [modelChoice, setModel] = useState<string | null>(null);
  const [texts, setTexts] = useState<string[]>(EXAMPLES);
  const [showCode, setShowCode] = useState(false);
  const embed = useCreateEmbeddings();
  const model = resolveModel(models, modelChoice);
  const inputs = texts.map((t) => t.trim()).filter(Boolean);

  const result = embed.data;
  const sentInputs = embed.variables?.input;
  const embedded = sentInputs ?? [];
  const rows: EmbeddedText[] = useMemo(
    () =>
      result
        ? [...result.data]
            .sort((a, b) => a.index - b.index)
            .map((d) => ({ text: sentInputs?.[d.index] ?? '', embedding: d.embedding }))
        : [],
    [result, sentInputs],
  );
  const matrix = useMemo(() => (rows.length ? cosineSimilarityMatrix(rows.map((r) => r.embedding)) : null), [rows]);

  return (
    <div className="split">
      <section className="stack">
        <div className="card stack" aria-label="Texts">
          <div className="card-title">Texts to compare</div>
          {texts.map((text, i) => (
            <div className="row" key={i}>
              <span className="heatmap-index">{i + 1}</span>
              <input
                className="input grow"
                aria-label={`Text ${i + 1}`}
                value={text}
                onChange={(e) => setTexts(texts.map((t, j) => (j === i ? e.target.value : t)))}
              />
              <button
                type="button"
                className="btn btn-ghost btn-icon"
                aria-label={`Remove text ${i + 1}`}
                disabled={texts.length <= 1}
                onClick={() => setTexts(texts.filter((_, j) => j !== i))}
              >
                ✕
              </button>
            </div>
          ))}
          <div className="row">
            <button type="button" className="btn btn-sm" onClick={() => setTexts([...texts, ''])}>
              + Add text
            </button>
            <span className="grow" />
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setShowCode(true)}>
              {'</>'} View code
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={!model || inputs.length === 0 || embed.isPending}
              onClick={() => embed.mutate({ model, input: inputs })}
            >
              {embed.isPending ? 'Embedding…' : 'Embed and compare'}
            </button>
          </div>
        </div>
        {embed.isError && <ErrorNotice error={embed.error} title="Embedding failed" />}
        <div className="card" aria-label="Similarity">
          <div className="card-title">Cosine similarity</div>
          {result && matrix ? (
            <div className="stack">
              <SimilarityHeatmap labels={embedded} matrix={matrix} />
              <p className="small muted">
                {result.data.length} vectors of {result.data[0]?.embedding.length ?? 0} dimensions from{' '}
                <span className="mono">{result.model}</span> · {result.usage.total_tokens} tokens
              </p>
              <details>
                <summary className="small">Vectors</summary>
                <ol className="vector-list" data-testid="vector-list">
                  {rows.map((row, i) => (
                    <li key={i}>
                      <span className="heatmap-index">{i + 1}</span>
                      <span className="mono small">
                        [
                        {row.embedding
                          .slice(0, 8)
                          .map((v) => v.toFixed(4))
                          .join(', ')}
                        {row.embedding.length > 8 ? `, … ${row.embedding.length - 8} more]` : ']'}
                      </span>
                    </li>
                  ))}
                </ol>
              </details>
              <div className="row">
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => downloadFile('embeddings.json', vectorsToJson(rows, result.model), 'application/json')}
                >
                  Export JSON
                </button>
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => downloadFile('embeddings.csv', vectorsToCsv(rows), 'text/csv')}
                >
                  Export CSV
                </button>
              </div>
            </div>
          ) : (
            <EmptyState icon="⊞" title="No vectors yet">
              <span className="small">Embed two or more texts to see how alike they are.</span>
            </EmptyState>
          )}
        </div>
      </section>
      <aside className="card stack" aria-label="Embedding settings">
        <ModelPicker models={models} value={model} onChange={setModel} />
      </aside>
      {showCode && (
        <CodeDialog
          request={{ path: '/v1/embeddings', body: { model, input: inputs } }}
          onClose={() => setShowCode(false)}
        />
      )}
    </div>
  );
}

export function EmbeddingsPage() {
  return (
    <div className="page">
      <PageHeader
        title="Embeddings"
        description="Embed several texts and compare them pairwise by cosine similarity."
      />
      <ModelGate capability="embeddings">{(models) => <EmbeddingsPlayground models={models} />}</ModelGate>
    </div>
  );
}
