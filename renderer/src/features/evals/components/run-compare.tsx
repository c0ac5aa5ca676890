import { useState } from 'react';
import { DataTable, type Column } from '../../../components/data-table';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { useOutputItems } from '../api/list-output-items';
import { verdictChanges, type Verdict, type VerdictChange } from '../compare-runs';
import type { EvalRunObject } from '../eval-types';
import { itemText } from '../item-text';
import { modelResult, percent } from '../run-results';

const VERDICT_CLASS: Record<Verdict, string> = {
  pass: 'badge-ok',
  fail: 'badge-error',
  error: 'badge-warn',
  missing: '',
};

function RunSelect({
  label,
  runs,
  value,
  onChange,
}: {
  label: string;
  runs: EvalRunObject[];
  value: string;
  onChange(id: string): void;
}) {
  return (
    <label className="field grow">
      <span>{label}</span>
      <select className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        {runs.map((run) => {
          const rate = modelResult(run).passRate;
          return (
            <option key={run.id} value={run.id}>
              {run.name} · {rate === null ? run.status : percent(rate)}
            </option>
          );
        })}
      </select>
    </label>
  );
}

const COLUMNS: Column<VerdictChange>[] = [
  { header: '#', numeric: true, cell: (c) => c.index + 1 },
  { header: 'Item', className: 'eval-item-cell', cell: (c) => <div className="eval-output">{itemText(c.item)}</div> },
  {
    header: 'Verdict',
    cell: (c) => (
      <span className="row">
        <span className={`badge ${VERDICT_CLASS[c.before]}`}>{c.before}</span>→
        <span className={`badge ${VERDICT_CLASS[c.after]}`}>{c.after}</span>
      </span>
    ),
  },
  { header: 'Before', className: 'eval-item-cell', cell: (c) => <div className="eval-output">{c.beforeOutput}</div> },
  { header: 'After', className: 'eval-item-cell', cell: (c) => <div className="eval-output">{c.afterOutput}</div> },
];

/** Two runs of the eval (before and after a prompt change, or two models): the items whose verdict changed. */
export function RunCompare({ runs }: { runs: EvalRunObject[] }) {
  const [beforeId, setBefore] = useState(runs[1]?.id ?? runs[0].id);
  const [afterId, setAfter] = useState(runs[0].id);
  const before = runs.find((r) => r.id === beforeId) ?? runs[0];
  const after = runs.find((r) => r.id === afterId) ?? runs[0];
  const [beforeItems, afterItems] = useOutputItems([before, after]);
  const changes = beforeItems.data && afterItems.data ? verdictChanges(beforeItems.data, afterItems.data) : null;
  const error = beforeItems.error ?? afterItems.error;
  const regressions = changes?.filter((c) => c.regression).length ?? 0;
  const fixed = changes?.filter((c) => c.after === 'pass').length ?? 0;
  return (
    <div className="stack">
      <div className="row">
        <RunSelect label="Before" runs={runs} value={before.id} onChange={setBefore} />
        <RunSelect label="After" runs={runs} value={after.id} onChange={setAfter} />
      </div>
      {error ? (
        <ErrorNotice error={error} title="The runs' results could not be loaded" />
      ) : !changes ? (
        <Loading label="Reading both runs…" />
      ) : (
        <>
          <p className="small" data-testid="compare-summary" aria-live="polite">
            {before.id === after.id
              ? 'Pick two different runs.'
              : changes.length === 0
                ? 'No item changed its verdict.'
                : `${changes.length} item${changes.length === 1 ? '' : 's'} changed verdict: ${fixed} now pass, ${regressions} passed before.`}
          </p>
          {changes.length > 0 && (
            <div className="table-scroll">
              <DataTable
                testId="verdict-changes"
                columns={COLUMNS}
                rows={changes}
                rowKey={(c) => String(c.index)}
                rowLabel={(c) => `Row ${c.index + 1}: ${c.before} to ${c.after}`}
              />
            </div>
          )}
        </>
      )}
    </div>
  );
}
