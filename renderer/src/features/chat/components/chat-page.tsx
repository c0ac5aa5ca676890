import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ModelGate } from '../../../components/model-gate';
import { PageHeader } from '../../../components/page-header';
import { Tabs } from '../../../components/tabs';
import { conversationFromRequest } from '../conversation-from-request';
import { useConversationsStore } from '../stores/conversations-store';
import { ChatPlayground } from './chat-playground';
import { CompareMode } from './compare-mode';
import { ExportConversationDialog, RenameConversationDialog } from './conversation-dialogs';

/** The message box before any chat model exists: visible, disabled, with one line saying why and what to do. */
function NoModelComposer() {
  return (
    <section className="card stack" aria-label="Message box">
      <textarea
        className="textarea"
        aria-label="Chat input (no chat model yet)"
        rows={3}
        disabled
        placeholder="Send a message"
      />
      <span className="small muted" role="note" data-testid="no-chat-model">
        No chat model yet: download one or use a .gguf file on this computer (above), or add an upstream provider in
        Settings; the message box works as soon as one is served.
      </span>
    </section>
  );
}

type Mode = 'chat' | 'compare';
const MODES = [
  { id: 'chat', label: 'Conversation' },
  { id: 'compare', label: 'Compare models' },
] as const satisfies readonly { id: Mode; label: string }[];

export function ChatPage() {
  const { conversations, activeId, create, select, remove, add, rename } = useConversationsStore();
  const location = useLocation();
  const navigate = useNavigate();
  const requestBody = (location.state as { requestBody?: unknown } | null)?.requestBody;

  // "Open in playground" from the request log: the logged body becomes a new conversation, once.
  useEffect(() => {
    if (requestBody === undefined) return;
    const imported = conversationFromRequest(requestBody);
    if (imported) add(imported);
    void navigate(location.pathname, { replace: true, state: null });
  }, [requestBody, add, navigate, location.pathname]);
  const active = conversations.find((c) => c.id === activeId) ?? conversations[0];
  const [dialog, setDialog] = useState<'delete' | 'rename' | 'export' | null>(null);
  const [mode, setMode] = useState<Mode>('chat');
  const closeDialog = () => setDialog(null);

  useEffect(() => {
    if (!active && requestBody === undefined) create();
  }, [active, create, requestBody]);

  return (
    <div className="page">
      <PageHeader title="Chat" description="Streamed chat completions with any chat model the gateway routes.">
        {mode === 'chat' && (
          <div className="page-actions" aria-label="Conversation actions" role="group">
            <label className="field page-actions-select">
              <span>Conversation</span>
              <select className="select" value={active?.id ?? ''} onChange={(e) => select(e.target.value)}>
                {conversations.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.title}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="btn" onClick={create}>
              + New chat
            </button>
            <button type="button" className="btn btn-ghost" disabled={!active} onClick={() => setDialog('rename')}>
              Rename
            </button>
            <button type="button" className="btn btn-ghost" disabled={!active} onClick={() => setDialog('export')}>
              Export
            </button>
            <button type="button" className="btn btn-ghost" disabled={!active} onClick={() => setDialog('delete')}>
              Delete
            </button>
          </div>
        )}
      </PageHeader>
      <Tabs<Mode> tabs={MODES} value={mode} onChange={setMode} label="Playground mode" />
      {dialog === 'rename' && active && (
        <RenameConversationDialog
          conversation={active}
          onRename={(title) => rename(active.id, title)}
          onClose={closeDialog}
        />
      )}
      {dialog === 'export' && active && <ExportConversationDialog conversation={active} onClose={closeDialog} />}
      {dialog === 'delete' && active && (
        <ConfirmDialog
          title={`Delete "${active.title}"?`}
          confirmLabel="Delete conversation"
          pending={false}
          error={null}
          onConfirm={() => {
            remove(active.id);
            closeDialog();
          }}
          onClose={closeDialog}
        >
          <p>
            Its {active.messages.length} message{active.messages.length === 1 ? '' : 's'} will be removed from this
            browser. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
      <ModelGate capability="chat" whenEmpty={<NoModelComposer />}>
        {(models) =>
          mode === 'compare' ? (
            <CompareMode models={models} />
          ) : (
            active && <ChatPlayground key={active.id} models={models} conversation={active} />
          )
        }
      </ModelGate>
    </div>
  );
}
