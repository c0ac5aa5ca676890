import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CodeDialog } from '../../../components/code-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { FileDrop } from '../../../components/file-drop';
import { MarkdownView } from '../../../components/markdown-view';
import { ModelGate } from '../../../components/model-gate';
import { ModelPicker, resolveModel } from '../../../components/model-picker';
import { PageHeader } from '../../../components/page-header';
import { DEFAULT_OCR_MODEL } from '../../../lib/default-models';
import type { GatewayModel } from '../../../lib/gateway-types';
import { readFileAsDataUrl } from '../../../lib/read-file';
import { useAskDocument } from '../api/ask-document';
import { segmentCitedText } from '../cited-text';

function DocumentQna({ models }: { models: GatewayModel[] }) {
  const [modelChoice, setModel] = useState<string | null>(DEFAULT_OCR_MODEL);
  const [file, setFile] = useState<{ name: string; dataUrl: string } | null>(null);
  const [url, setUrl] = useState('');
  const [question, setQuestion] = useState('');
  const [activeCitation, setActiveCitation] = useState(0);
  const [showCode, setShowCode] = useState(false);
  const ask = useAskDocument();
  const textRef = useRef<HTMLDivElement>(null);
  const model = resolveModel(models, modelChoice);
  const document = file?.dataUrl ?? url.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setActiveCitation(0);
    ask.mutate({ model, document, question });
  };

  const answer = ask.data;
  const citations = answer?.citations ?? [];
  const segments = answer?.document_text ? segmentCitedText(answer.document_text, citations) : [];

  useEffect(() => {
    textRef.current?.querySelector(`[data-citation="${activeCitation}"]`)?.scrollIntoView?.({ block: 'center' });
  }, [activeCitation, answer]);

  return (
    <div className="stack">
      <form className="card stack" onSubmit={submit} aria-label="Question">
        <div className="two-col">
          <FileDrop
            accept="application/pdf,.pdf,image/*"
            acceptPaste
            compact
            label={file ? `${file.name} — pick another` : 'Drop, paste or pick a PDF or image'}
            onFile={(f) => void readFileAsDataUrl(f).then((dataUrl) => setFile({ name: f.name, dataUrl }))}
          />
          <div className="stack">
            <label className="field">
              <span>…or a document URL</span>
              <input
                className="input"
                type="url"
                placeholder="https://example.com/report.pdf"
                value={url}
                disabled={!!file}
                onChange={(e) => setUrl(e.target.value)}
              />
            </label>
            {file && (
              <div>
                <button type="button" className="btn btn-sm" onClick={() => setFile(null)}>
                  Clear file
                </button>
              </div>
            )}
          </div>
        </div>
        <div className="row" style={{ alignItems: 'flex-end' }}>
          <label className="field grow">
            <span>Question</span>
            <input
              className="input"
              value={question}
              placeholder="What is the invoice total?"
              onChange={(e) => setQuestion(e.target.value)}
            />
          </label>
          <div style={{ width: 220 }}>
            <ModelPicker models={models} value={model} onChange={setModel} />
          </div>
          <button type="button" className="btn btn-ghost" onClick={() => setShowCode(true)}>
            {'</>'} View code
          </button>
          <button type="submit" className="btn btn-primary" disabled={!document || !question.trim() || ask.isPending}>
            {ask.isPending ? 'Reading…' : 'Ask'}
          </button>
        </div>
      </form>
      {showCode && (
        <CodeDialog
          request={{
            path: '/v1/chat/completions',
            body: { model, document, question },
            fileNames: file ? [file.name] : [],
          }}
          onClose={() => setShowCode(false)}
        />
      )}
      {ask.isError && <ErrorNotice error={ask.error} title="The question could not be answered" />}
      {answer ? (
        <div className="two-col">
          <section className="card stack" aria-label="Answer">
            <div className="card-title">Answer</div>
            <MarkdownView source={answer.choices[0]?.message.content ?? ''} />
            {citations.length > 0 && (
              <div className="stack">
                <div className="field-label">Citations</div>
                {citations.map((c, i) => (
                  <button
                    key={i}
                    type="button"
                    className={`citation${i === activeCitation ? ' active' : ''}`}
                    aria-pressed={i === activeCitation}
                    onClick={() => setActiveCitation(i)}
                  >
                    <span className="badge">p. {c.page + 1}</span>
                    <span className="grow">{c.text}</span>
                    <span className="faint small">{c.score.toFixed(2)}</span>
                  </button>
                ))}
              </div>
            )}
          </section>
          <section className="card" aria-label="Document text">
            <div className="card-title">Document text</div>
            {segments.length ? (
              <div className="document-text" ref={textRef} data-testid="document-text">
                {segments.map((s, i) =>
                  s.citation === null ? (
                    <span key={i}>{s.text}</span>
                  ) : (
                    <mark
                      key={i}
                      data-citation={s.citation}
                      className={s.citation === activeCitation ? 'active' : undefined}
                    >
                      {s.text}
                    </mark>
                  ),
                )}
              </div>
            ) : (
              <p className="muted small">The gateway sent no document text.</p>
            )}
          </section>
        </div>
      ) : (
        !ask.isPending && (
          <div className="card">
            <EmptyState icon="▤" title="Ask a question about a document">
              <span className="small">
                The answer comes with the passages it was based on, highlighted in the text.
              </span>
            </EmptyState>
          </div>
        )
      )}
    </div>
  );
}

export function DocumentsPage() {
  return (
    <div className="page">
      <PageHeader
        title="Documents"
        description="Question answering over a PDF or image, with the cited passages highlighted."
      />
      <ModelGate capability="documents">{(models) => <DocumentQna models={models} />}</ModelGate>
    </div>
  );
}
