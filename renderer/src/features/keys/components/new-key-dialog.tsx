import { CopyButton } from '../../../components/copy-button';
import { Dialog } from '../../../components/dialog';
import type { CreatedKey } from '../api/create-key';

/** The one time the full key is shown. */
export function NewKeyDialog({ created, onClose }: { created: CreatedKey; onClose(): void }) {
  return (
    <Dialog title="Your new API key" onClose={onClose}>
      <div className="notice notice-warn">
        <span className="notice-title">Copy this key now: you will not see it again.</span>
        <span>The gateway stores only a hash of it. If you lose it, revoke it and create another.</span>
      </div>
      <div className="field">
        <span className="field-label">
          {created.name} · {created.role}
        </span>
        <div className="row">
          <input
            className="input mono grow"
            readOnly
            value={created.key}
            aria-label="New API key"
            onFocus={(e) => e.target.select()}
          />
          <CopyButton text={created.key} label="Copy key" className="btn" />
        </div>
      </div>
      <div className="row dialog-actions">
        <button type="button" className="btn btn-primary" onClick={onClose}>
          I have copied it
        </button>
      </div>
    </Dialog>
  );
}
