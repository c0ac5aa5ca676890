import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { PageHeader } from '../../../components/page-header';
import { useAccount } from '../../../lib/account-query';
import { formatCost } from '../../../lib/format';
import type { AccountSnapshot, AccountUsage, UsageGroup } from '../../../lib/gateway-types';
import { useUsage } from '../api/get-usage';
import { fillUsageDays } from '../usage-days';
import { BalanceForm } from './balance-form';
import { UsageBarChart } from './usage-bar-chart';
import { CellText } from '../../../components/cell-text';
import { DataTable, type Column } from '../../../components/data-table';

type Metric = 'requests' | 'total_tokens' | 'cost';
const METRICS: readonly { id: Metric; label: string }[] = [
  { id: 'requests', label: 'Requests' },
  { id: 'total_tokens', label: 'Tokens' },
  { id: 'cost', label: 'Cost' },
];
const CHART_DAYS = 14;

function IdentityCard({ account }: { account: AccountSnapshot }) {
  return (
    <section className="card stat-card" aria-label="Identity">
      <div className="card-title">Signed in as</div>
      <div className="stat-value">{account.user.full_name}</div>
      <div className="row small muted">
        <span className="mono">{account.api_key.prefix}</span>
        <span className={`badge${account.api_key.role === 'owner' ? ' badge-accent' : ''}`}>
          {account.api_key.role}
        </span>
        <span>{account.api_key.name}</span>
      </div>
    </section>
  );
}

function BalanceCard({ account }: { account: AccountSnapshot }) {
  const [editing, setEditing] = useState(false);
  const { balance } = account;
  return (
    <section className="card stat-card" aria-label="Balance">
      <div className="card-title">
        <span className="grow">Balance</span>
        {account.api_key.role === 'owner' && !editing && (
          <button type="button" className="btn btn-sm" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
      </div>
      {editing ? (
        <BalanceForm balance={balance} onDone={() => setEditing(false)} />
      ) : (
        <>
          <div className="stat-value" data-testid="balance-amount">
            {formatCost(balance.amount, balance.currency)}
          </div>
          <div className="small muted">
            {balance.limit === undefined
              ? 'No spending limit'
              : `Spending limit ${formatCost(balance.limit, balance.currency)}`}
          </div>
        </>
      )}
    </section>
  );
}

function TotalsCard({ usage }: { usage: AccountUsage }) {
  return (
    <section className="card stat-card" aria-label="Usage totals">
      <div className="card-title">Usage</div>
      <div className="stat-value" data-testid="total-requests">
        {usage.total_requests.toLocaleString()} requests
      </div>
      <div className="small muted">
        {usage.total_tokens.toLocaleString()} tokens ({usage.prompt_tokens.toLocaleString()} in,{' '}
        {usage.completion_tokens.toLocaleString()} out) · {formatCost(usage.total_cost, usage.currency)}
      </div>
    </section>
  );
}

function usageColumns(currency: string): Column<UsageGroup>[] {
  return [
    { header: 'Model', className: 'mono', cell: (row) => <CellText text={row.key} /> },
    { header: 'Requests', numeric: true, cell: (row) => row.requests.toLocaleString() },
    { header: 'Prompt tokens', numeric: true, cell: (row) => row.prompt_tokens.toLocaleString() },
    { header: 'Completion tokens', numeric: true, cell: (row) => row.completion_tokens.toLocaleString() },
    { header: 'Cost', numeric: true, cell: (row) => formatCost(row.cost, currency) },
  ];
}

function UsageDetails({ usage }: { usage: AccountUsage }) {
  const [metric, setMetric] = useState<Metric>('requests');
  const days = fillUsageDays(usage.by_day, CHART_DAYS, Date.now());
  const format = (v: number) => (metric === 'cost' ? formatCost(v, usage.currency) : v.toLocaleString());
  return (
    <>
      <section className="card" aria-label="Usage by day">
        <div className="card-title">
          <span className="grow">Usage by day</span>
          <div className="segmented" role="group" aria-label="Chart metric">
            {METRICS.map((m) => (
              <button key={m.id} type="button" aria-pressed={metric === m.id} onClick={() => setMetric(m.id)}>
                {m.label}
              </button>
            ))}
          </div>
        </div>
        <UsageBarChart
          days={days}
          value={(d: UsageGroup) => d[metric]}
          format={format}
          integer={metric !== 'cost'}
          label={`${METRICS.find((m) => m.id === metric)?.label} per day`}
        />
      </section>
      <section className="card table-card" aria-label="Usage by model">
        <div className="card-title table-card-pad">Usage by model</div>
        <DataTable
          testId="usage-by-model"
          columns={usageColumns(usage.currency)}
          rows={usage.by_model}
          rowKey={(row) => row.key}
          empty={
            <EmptyState icon="◉" title="No usage yet">
              <span className="small">Requests to models appear here once the gateway has served them.</span>
            </EmptyState>
          }
        />
      </section>
    </>
  );
}

export function AccountPage() {
  const account = useAccount();
  const usage = useUsage();
  const refresh = () => {
    void account.refetch();
    void usage.refetch();
  };
  return (
    <div className="page">
      <PageHeader title="Account" description="Who you are signed in as, the balance, and what the gateway has served.">
        <button type="button" className="btn" onClick={refresh} disabled={usage.isFetching}>
          ↻ Refresh
        </button>
      </PageHeader>
      {account.isError && (
        <ErrorNotice error={account.error} title="The account could not be loaded" onRetry={() => account.refetch()} />
      )}
      {usage.isError && (
        <ErrorNotice error={usage.error} title="Usage could not be loaded" onRetry={() => usage.refetch()} />
      )}
      {account.isPending || usage.isPending ? (
        <Loading label="Loading the account…" />
      ) : (
        <>
          <div className="stat-grid">
            {account.data && <IdentityCard account={account.data} />}
            {account.data && <BalanceCard account={account.data} />}
            {usage.data && <TotalsCard usage={usage.data.usage} />}
          </div>
          {usage.data && <UsageDetails usage={usage.data.usage} />}
        </>
      )}
    </div>
  );
}
