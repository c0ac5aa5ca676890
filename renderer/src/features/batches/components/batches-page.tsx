import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { PageHeader } from '../../../components/page-header';
import { useBatches } from '../api/list-batches';
import { BatchCreateForm } from './batch-create-form';
import { BatchTable } from './batch-table';

export function BatchesPage() {
  const batches = useBatches();
  return (
    <div className="page">
      <PageHeader
        title="Batches"
        description="Run many requests as one job: compose them or upload a JSONL file, follow the progress, read the results."
      />
      <BatchCreateForm />
      <section className="card table-card" aria-label="Batches">
        <div className="card-title table-card-pad">Batches</div>
        {batches.isPending ? (
          <div className="table-card-pad">
            <Loading label="Loading batches…" />
          </div>
        ) : batches.isError ? (
          <div className="table-card-pad">
            <ErrorNotice
              error={batches.error}
              title="The batches could not be loaded"
              onRetry={() => batches.refetch()}
            />
          </div>
        ) : batches.data.data.length === 0 ? (
          <EmptyState icon="≣" title="No batches yet">
            <span className="small">Batches you create appear here with their progress.</span>
          </EmptyState>
        ) : (
          <BatchTable batches={batches.data.data} />
        )}
      </section>
    </div>
  );
}
