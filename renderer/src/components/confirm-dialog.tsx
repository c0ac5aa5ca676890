import type { ReactNode } from 'react';
import { Dialog } from './dialog';
import { ErrorNotice } from './error-notice';

interface Props {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending: boolean;
  error: unknown;
  onConfirm(): void;
  onClose(): void;
}

/** Asks before a destructive action; the gateway's refusal (e.g. a 409) is shown in place. */
export function ConfirmDialog({ title, children, confirmLabel, pending, error, onConfirm, onClose }: Props) {
  return (
    <Dialog title={title} onClose={onClose}>
      <div className="stack">{children}</div>
      {error ? <ErrorNotice error={error} title={`${confirmLabel} failed`} /> : null}
      <div className="row dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" disabled={pending} onClick={onConfirm}>
          {pending ? 'Working…' : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
