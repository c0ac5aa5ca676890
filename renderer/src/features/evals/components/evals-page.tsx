import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type Column } from '../../../components/data-table';
import { CellText } from '../../../components/cell-text';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { ModelGate } from '../../../components/model-gate';
import { PageHeader } from '../../../components/page-header';
import { RowActions } from '../../../components/row-actions';
import { formatUnixTime } from '../../../lib/format';
import { useDeleteEval } from '../api/delete-eval';
import { useEvals } from '../api/list-evals';
import type { EvalObject } from '../eval-types';
import { EvalCreateForm } from './eval-create-form';
import { EvalDetail } from './eval-detail';
import './evals.css';

export function EvalsPage() {
  const evals = useEvals();
  const remove = useDeleteEval();
  const [openId, setOpenId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<EvalObject | null>(null);
  const open = evals.data?.data.find((e) => e.id === openId) ?? null;
  const columns: Column<EvalObject>[] = [
    { header: 'Eval', cell: (e) => <CellText text={e.name} /> },
    { header: 'Graders', cell: (e) => <CellText text={e.testing_criteria.map((g) => g.name).join(', ')} /> },
    { header: 'Created', cell: (e) => formatUnixTime(e.created_at) },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (e) => (
        <RowActions
          actions={[
            { label: e.id === openId ? 'Opened' : 'Open', name: `Open ${e.name}`, onClick: () => setOpenId(e.id) },
            { label: 'Delete', name: `Delete ${e.name}`, danger: true, onClick: () => setDeleting(e) },
          ]}
        />
      ),
    },
  ];
  return (
    <div className="page">
      <PageHeader
        title="Evals"
        description="Which model, and which prompt? Run a dataset on up to four models, grade every answer, and compare pass rates, cost and latency."
      />
      <ModelGate capability="chat">
        {(models) => (
          <>
            <EvalCreateForm models={models} onCreated={(e) => setOpenId(e.id)} />
            <section className="card table-card" aria-label="Evals">
              <div className="card-title table-card-pad">Evals</div>
              {evals.isPending ? (
                <div className="table-card-pad">
                  <Loading label="Loading evals…" />
                </div>
              ) : evals.isError ? (
                <div className="table-card-pad">
                  <ErrorNotice
                    error={evals.error}
                    title="The evals could not be loaded"
                    onRetry={() => evals.refetch()}
                  />
                </div>
              ) : (
                <DataTable
                  testId="evals-table"
                  columns={columns}
                  rows={evals.data.data}
                  rowKey={(e) => e.id}
                  rowLabel={(e) => e.name}
                  rowClassName={(e) => (e.id === openId ? 'row-selected' : undefined)}
                  empty={
                    <EmptyState icon="✓" title="No evals yet">
                      <span className="small">Evals you create appear here; open one for its runs and results.</span>
                    </EmptyState>
                  }
                />
              )}
            </section>
            {open && <EvalDetail key={open.id} evaluation={open} models={models} />}
          </>
        )}
      </ModelGate>
      {deleting && (
        <ConfirmDialog
          title={`Delete "${deleting.name}"?`}
          confirmLabel="Delete eval"
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                if (openId === deleting.id) setOpenId(null);
                setDeleting(null);
              },
            })
          }
          onClose={() => {
            remove.reset();
            setDeleting(null);
          }}
        >
          <p>Its runs (running ones are cancelled) and their results are deleted too.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
