import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { PageHeader } from '../../../components/page-header';
import { useAccount } from '../../../lib/account-query';
import type { Capability, GatewayModel } from '../../../lib/gateway-types';
import { modelsQueryOptions } from '../../../lib/models-query';
import { FineTuneActions } from './fine-tune-actions';
import { ModelState } from './model-state';
import { DeploymentList } from './deployment-list';
import { LocalModelsSection } from '../../../components/local-models/components/local-models-section';
import { CellText } from '../../../components/cell-text';
import { ModelDownloadOffer } from '../../../components/local-models/components/model-download-offer';
import { UseLocalFile } from '../../../components/local-models/components/use-local-file';
import { OcrLanguagesSection } from '../../../components/local-models/components/ocr-languages-section';
import { AliasList } from '../../../components/alias-list';
import { DataTable, type Column } from '../../../components/data-table';

function Pricing({ pricing, currency }: { pricing: GatewayModel['pricing']; currency: string }) {
  if (!pricing) return <span className="faint">—</span>;
  const parts = [`${pricing.input_per_million} in / ${pricing.output_per_million} out per M tokens`];
  if (pricing.per_request) parts.push(`${pricing.per_request} per request`);
  return (
    <span title={currency}>
      {parts.join(' · ')} <span className="faint">{currency}</span>
    </span>
  );
}

/** The columns of the models table; `unknown` while the list is outdated (the gateway does not answer). */
function modelColumns(currency: string, isOwner: boolean, unknown: boolean): Column<GatewayModel>[] {
  return [
    {
      header: 'Model',
      cell: (m) => (
        <>
          <CellText text={m.id} className="mono" />
          <AliasList aliases={m.aliases} prefix="aka " />
          {m.fine_tuned && (
            <div className="row chip-row">
              <span className="badge badge-accent">fine-tuned</span>
              {m.archived && <span className="badge badge-warn">archived</span>}
              {Object.entries(m.metadata).map(([k, v]) => (
                <CellText key={k} text={`${k}: ${v}`} className="small faint" />
              ))}
            </div>
          )}
        </>
      ),
    },
    {
      header: 'Capabilities',
      cell: (m) => (
        <div className="row chip-row">
          {m.capabilities.map((c) => (
            <span key={c} className="chip">
              {c}
            </span>
          ))}
        </div>
      ),
    },
    {
      header: 'Provider',
      className: 'mono',
      cell: (m) =>
        m.deployments ? (
          <DeploymentList model={m} currency={currency} />
        ) : (
          <CellText text={m.provider} className="cell-text-narrow" />
        ),
    },
    { header: 'State', cell: (m) => <ModelState model={m} unknown={unknown} /> },
    { header: 'Pricing', className: 'small', cell: (m) => <Pricing pricing={m.pricing} currency={currency} /> },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (m) => m.fine_tuned && <FineTuneActions model={m} isOwner={isOwner} />,
    },
  ];
}

export function ModelsPage() {
  // Polled while the page is open, so engine states (cold, loading, ready, unavailable) and an unreachable gateway show up.
  const models = useQuery({ ...modelsQueryOptions(), refetchInterval: 10_000 });
  const outdated = models.isError && models.data !== undefined;
  const account = useAccount();
  const [capability, setCapability] = useState<Capability | 'all'>('all');
  const currency = account.data?.balance.currency ?? 'USD';
  const isOwner = account.data?.api_key.role === 'owner';
  const all = models.data?.data ?? [];
  const capabilities = [...new Set(all.flatMap((m) => m.capabilities))].sort();
  const rows = capability === 'all' ? all : all.filter((m) => m.capabilities.includes(capability));

  return (
    <div className="page">
      <PageHeader
        title="Models"
        description="Every route the gateway serves, with its state and price. Fine-tuned models can be edited, archived and deleted."
      >
        <label className="field header-field">
          <span>Capability</span>
          <select
            className="select"
            value={capability}
            onChange={(e) => setCapability(e.target.value as Capability | 'all')}
          >
            <option value="all">All capabilities</option>
            {capabilities.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </PageHeader>
      {outdated && (
        <div className="notice notice-warn" role="alert" data-testid="models-outdated">
          <span className="notice-title">The gateway is not answering</span>
          <span>
            {models.error instanceof Error ? models.error.message : ''} The list below is from{' '}
            {new Date(models.dataUpdatedAt).toLocaleTimeString()}; the states of its models are unknown until it answers
            again.
          </span>
        </div>
      )}
      <section className="card table-card" aria-label="Models">
        {models.isPending ? (
          <div className="table-card-pad">
            <Loading label="Loading models…" />
          </div>
        ) : models.isError && !outdated ? (
          <div className="table-card-pad">
            <ErrorNotice
              error={models.error}
              title="The model list could not be loaded"
              onRetry={() => models.refetch()}
            />
          </div>
        ) : (
          <DataTable
            testId="models-table"
            columns={modelColumns(currency, isOwner, outdated)}
            rows={rows}
            rowKey={(m) => m.id}
            rowLabel={(m) => m.id}
            rowClassName={(m) => (m.archived ? 'row-muted' : undefined)}
            empty={
              <EmptyState
                icon="◈"
                title={capability === 'all' ? 'No models are configured' : `No model offers ${capability}`}
              />
            }
          />
        )}
      </section>
      {isOwner && (
        <>
          <LocalModelsSection />
          <UseLocalFile />
          <ModelDownloadOffer />
          <OcrLanguagesSection />
        </>
      )}
    </div>
  );
}
