import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { RowActions } from '../../../components/row-actions';
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
    <RowActions
      actions={[
        { label: 'Metadata', name: `Edit metadata of ${model.id}`, onClick: () => setOpen('metadata') },
        {
          label: model.archived ? 'Unarchive' : 'Archive',
          name: `${model.archived ? 'Unarchive' : 'Archive'} ${model.id}`,
          disabled: archive.isPending,
          onClick: () => archive.mutate({ id: model.id, archived: !model.archived }),
        },
        isOwner && { label: 'Delete', name: `Delete ${model.id}`, danger: true, onClick: () => setOpen('delete') },
      ]}
    >
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
    </RowActions>
  );
}
