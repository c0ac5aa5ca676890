import { DataTable, type Column } from '../../../components/data-table';
import { ErrorNotice } from '../../../components/error-notice';
import { useAccount } from '../../../lib/account-query';
import { formatCost, formatMs } from '../../../lib/format';
import { useOutputItems } from '../api/list-output-items';
import { outputText } from '../compare-runs';
import { itemText } from '../item-text';
import type { EvalOutputItemObject, EvalRunObject } from '../eval-types';
import { barsOf, modelResult, percent } from '../run-results';
import { sideBySideRows, type SideBySideRow } from '../side-by-side-rows';
import { BarChart } from './bar-chart';

const VERDICT_CLASS = { pass: 'badge-ok', fail: 'badge-error', error: 'badge-warn' } as const;

function OutputCell({ item }: { item: EvalOutputItemObject | undefined }) {
  if (!item) return <span className="small muted">not graded yet</span>;
  const failed = item.results.filter((r) => !r.passed).map((r) => r.name);
  return (
    <div className="stack">
      <div className="row">
        <span className={`badge ${VERDICT_CLASS[item.status]}`}>{item.status}</span>
        {failed.length > 0 && <span className="small muted">failed: {failed.join(', ')}</span>}
      </div>
      <div className="eval-output">{outputText(item)}</div>
    </div>
  );
}

function Charts({ runs }: { runs: EvalRunObject[] }) {
  const currency = useAccount().data?.balance.currency;
  const results = runs.map(modelResult);
  const criteria = [...new Set(results.flatMap((r) => r.criteria.map((c) => c.name)))];
  return (
    <div className="eval-charts" data-testid="eval-charts">
      <BarChart
        title="Pass rate"
        tone="ok"
        bars={barsOf(
          results.map((r) => ({ label: r.model, value: r.passRate })),
          percent,
          1,
        )}
      />
      {criteria.length > 1 &&
        criteria.map((name) => (
          <BarChart
            key={name}
            title={`Pass rate · ${name}`}
            tone="ok"
            bars={barsOf(
              results.map((r) => ({
                label: r.model,
                value: r.criteria.find((c) => c.name === name)?.passRate ?? null,
              })),
              percent,
              1,
            )}
          />
        ))}
      <BarChart
        title="Cost (the model's requests)"
        bars={barsOf(
          results.map((r) => ({ label: r.model, value: r.cost })),
          (v) => formatCost(v, currency),
        )}
      />
      <BarChart
        title="Mean latency per request"
        bars={barsOf(
          results.map((r) => ({ label: r.model, value: r.meanLatencyMs })),
          formatMs,
        )}
      />
      <BarChart
        title="Completion tokens"
        bars={barsOf(
          results.map((r) => ({ label: r.model, value: r.completionTokens })),
          (v) => `${v} tok`,
        )}
      />
      <BarChart
        title="Prompt tokens"
        bars={barsOf(
          results.map((r) => ({ label: r.model, value: r.promptTokens })),
          (v) => `${v} tok`,
        )}
      />
      {results.some((r) => r.graderCost > 0) && (
        <p className="small muted">
          Judges and embeddings cost on top:{' '}
          {results.map((r) => `${r.model} ${formatCost(r.graderCost, currency)}`).join(' · ')}.
        </p>
      )}
    </div>
  );
}

/** The runs started together: charts per model, then every row with each model's output side by side, failing rows first. */
export function RunGroupResults({ runs }: { runs: EvalRunObject[] }) {
  const items = useOutputItems(runs);
  const failedQuery = items.find((q) => q.isError);
  const rows = sideBySideRows(items.map((q) => q.data ?? []));
  const columns: Column<SideBySideRow>[] = [
    { header: '#', numeric: true, cell: (row) => row.index + 1 },
    {
      header: 'Item',
      className: 'eval-item-cell',
      cell: (row) => <div className="eval-output">{itemText(row.item)}</div>,
    },
    ...runs.map((run, column): Column<SideBySideRow> => ({
      header: modelResult(run).model,
      className: 'eval-item-cell',
      cell: (row) => <OutputCell item={row.cells[column]} />,
    })),
  ];
  return (
    <div className="stack">
      <Charts runs={runs} />
      {failedQuery?.error && <ErrorNotice error={failedQuery.error} title="The results could not be loaded" />}
      <div className="table-scroll">
        <DataTable
          testId="eval-items"
          columns={columns}
          rows={rows}
          rowKey={(row) => String(row.index)}
          rowLabel={(row) => `Row ${row.index + 1}`}
          empty={<p className="small muted table-card-pad">No row graded yet.</p>}
        />
      </div>
    </div>
  );
}
