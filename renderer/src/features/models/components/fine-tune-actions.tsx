import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorNotice } from '../../../components/error-notice';
import type { GatewayModel } from '../../../lib/gateway-types';
import { useDeleteModel } from '../api/delete-model';
import { useSetModelArchived } from '../api/set-model-archived';
import { MetadataDialog } from './metadata-dialog';

/** Edit metadata, archive/unarchive and (Owners) delete, for one fine-tuned model. */
export function FineTuneActions({ model, isOwner }: { model: GatewayModel; isOwner: boolean }) {
  const [open, setOpen] = useState<'metadata' | 'delete' | null>(null);
  const archive = useSetModelArchived();
  const remove = useDeleteModel();
  const close = () => {
    remove.reset();
    setOpen(null);
  };
  return (
    <div className="table-actions">
      <button
        type="button"
        className="btn btn-sm"
        onClick={() => setOpen('metadata')}
        aria-label={`Edit metadata of ${model.id}`}
      >
        Metadata
      </button>
      <button
        type="button"
        className="btn btn-sm"
        disabled={archive.isPending}
        onClick={() => archive.mutate({ id: model.id, archived: !model.archived })}
        aria-label={`${model.archived ? 'Unarchive' : 'Archive'} ${model.id}`}
      >
        {model.archived ? 'Unarchive' : 'Archive'}
      </button>
      {isOwner && (
        <button
          type="button"
          className="btn btn-sm btn-danger"
          onClick={() => setOpen('delete')}
          aria-label={`Delete ${model.id}`}
        >
          Delete
        </button>
      )}
      {archive.isError && <ErrorNotice error={archive.error} title="Archiving failed" />}
      {open === 'metadata' && <MetadataDialog model={model} onClose={close} />}
      {open === 'delete' && (
        <ConfirmDialog
          title={`Delete ${model.id}?`}
          confirmLabel="Delete model"
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(model.id, { onSuccess: close })}
          onClose={close}
        >
          <p>
            The model disappears from the list and requests naming it are refused. To keep it for later, archive it
            instead.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
