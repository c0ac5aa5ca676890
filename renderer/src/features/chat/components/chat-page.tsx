import { useEffect } from 'react';
import { ModelGate } from '../../../components/model-gate';
import { PageHeader } from '../../../components/page-header';
import { useConversationsStore } from '../stores/conversations-store';
import { ChatPlayground } from './chat-playground';

export function ChatPage() {
  const { conversations, activeId, create, select, remove } = useConversationsStore();
  const active = conversations.find((c) => c.id === activeId) ?? conversations[0];

  useEffect(() => {
    if (!active) create();
  }, [active, create]);

  return (
    <div className="page">
      <PageHeader title="Chat" description="Streamed chat completions with any chat model the gateway routes.">
        <label className="field" style={{ width: 260 }}>
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
        <button type="button" className="btn btn-ghost" disabled={!active} onClick={() => active && remove(active.id)}>
          Delete
        </button>
      </PageHeader>
      <ModelGate capability="chat">{(models) => active && <ChatPlayground key={active.id} models={models} conversation={active} />}</ModelGate>
    </div>
  );
}
