import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { FormActions } from '../../../components/form-actions';
import { downloadFile } from '../../../lib/download';
import type { Conversation } from '../chat-types';
import { conversationFileName, conversationToJson, conversationToMarkdown } from '../export-conversation';

export function RenameConversationDialog({
  conversation,
  onRename,
  onClose,
}: {
  conversation: Conversation;
  onRename(title: string): void;
  onClose(): void;
}) {
  const [title, setTitle] = useState(conversation.title);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRename(title);
    onClose();
  };
  return (
    <Dialog title="Rename conversation" onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        <label className="field">
          <span>Title</span>
          <input className="input" value={title} maxLength={120} autoFocus onChange={(e) => setTitle(e.target.value)} />
        </label>
        <FormActions submitLabel="Rename" onCancel={onClose} disabled={!title.trim()} />
      </form>
    </Dialog>
  );
}

export function ExportConversationDialog({ conversation, onClose }: { conversation: Conversation; onClose(): void }) {
  return (
    <Dialog title={`Export "${conversation.title}"`} onClose={onClose}>
      <p className="small muted">
        Markdown reads well and pastes into notes; JSON keeps the settings and attached images so nothing is lost.
      </p>
      <div className="row dialog-actions">
        <button
          type="button"
          className="btn"
          onClick={() =>
            downloadFile(
              conversationFileName(conversation, 'md'),
              conversationToMarkdown(conversation),
              'text/markdown',
            )
          }
        >
          Download Markdown
        </button>
        <button
          type="button"
          className="btn"
          onClick={() =>
            downloadFile(
              conversationFileName(conversation, 'json'),
              conversationToJson(conversation),
              'application/json',
            )
          }
        >
          Download JSON
        </button>
      </div>
    </Dialog>
  );
}
