import { useState } from 'react';
import { FileDrop } from '../../../components/file-drop';
import { Tabs } from '../../../components/tabs';
import { useEvalDraftStore } from '../../../lib/eval-draft-store';
import type { EvalRow } from '../eval-types';
import { datasetFields, parseDataset, type DatasetProblem } from '../parse-dataset';
import { LogEntryPicker } from './log-entry-picker';

type Source = 'paste' | 'upload' | 'log' | 'draft';

const EXAMPLE = '{"input": "Capital of France?", "expected": "Paris"}\n{"input": "2 + 2 =", "expected": "4"}';

function Problems({ problems }: { problems: DatasetProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <div className="notice notice-warn small" role="alert" data-testid="dataset-problems">
      <span className="notice-title">
        {problems.length} line{problems.length === 1 ? '' : 's'} left out
      </span>
      <ul className="plain-list">
        {problems.slice(0, 5).map((p) => (
          <li key={p.line}>
            line {p.line}: {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Where an eval's rows come from: JSONL pasted or uploaded, logged chat requests, or the playground's draft. */
export function DatasetEditor({ rows, onChange }: { rows: EvalRow[]; onChange(rows: EvalRow[]): void }) {
  const [source, setSource] = useState<Source>('paste');
  const [text, setText] = useState('');
  const [problems, setProblems] = useState<DatasetProblem[]>([]);
  const [fileName, setFileName] = useState<string | null>(null);
  const draft = useEvalDraftStore();
  const readText = (value: string) => {
    const parsed = parseDataset(value);
    setProblems(parsed.problems);
    onChange(parsed.rows);
  };
  const tabs = [
    { id: 'paste', label: 'Paste JSONL' },
    { id: 'upload', label: 'Upload a file' },
    { id: 'log', label: 'From the request log' },
    { id: 'draft', label: `From the playground (${draft.items.length})` },
  ] as const satisfies readonly { id: Source; label: string }[];
  const fields = datasetFields(rows);
  return (
    <div className="stack">
      <Tabs
        tabs={tabs}
        value={source}
        label="Dataset source"
        onChange={(next) => {
          setSource(next);
          setProblems([]);
          onChange([]);
        }}
      />
      {source === 'paste' && (
        <label className="field">
          <span>One JSON object per line (an item, or {'{"item": …, "sample": …}'})</span>
          <textarea
            className="textarea mono"
            rows={5}
            aria-label="Dataset JSONL"
            placeholder={EXAMPLE}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              readText(e.target.value);
            }}
          />
        </label>
      )}
      {source === 'upload' && (
        <FileDrop
          accept=".jsonl,.json,application/jsonl,application/x-ndjson,application/json,text/plain"
          compact
          label={fileName ? `${fileName} — pick another` : 'Drop or pick a .jsonl file'}
          hint="One item per line, or one JSON array of items"
          onFile={(file) => {
            setFileName(file.name);
            void file.text().then(readText);
          }}
        />
      )}
      {source === 'log' && <LogEntryPicker onRows={onChange} />}
      {source === 'draft' && (
        <div className="stack">
          {draft.items.length === 0 ? (
            <p className="small muted">
              Nothing saved yet: in the Chat playground's compare mode, “Save as eval item” adds the prompt (and the
              answer you choose as the reference) here.
            </p>
          ) : (
            <>
              <p className="small muted">
                {draft.items.length} item{draft.items.length === 1 ? '' : 's'} saved from the playground.
              </p>
              <div className="row">
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() =>
                    onChange(draft.items.map(({ input, expected }) => ({ item: { input, expected: expected ?? '' } })))
                  }
                >
                  Use the {draft.items.length} saved items
                </button>
                <button type="button" className="btn btn-sm btn-ghost" onClick={draft.clear}>
                  Clear the draft
                </button>
              </div>
            </>
          )}
        </div>
      )}
      <Problems problems={problems} />
      <p className="small muted" data-testid="dataset-summary" aria-live="polite">
        {rows.length === 0
          ? 'No rows yet.'
          : `${rows.length} row${rows.length === 1 ? '' : 's'} · fields: ${fields.map((f) => `{{item.${f}}}`).join(', ')}`}
      </p>
    </div>
  );
}
