import { useEffect, useRef, useState } from 'react';
import { CodeDialog } from '../../../components/code-dialog';
import { EmptyState } from '../../../components/empty-state';
import { resolveModel } from '../../../components/model-picker';
import { useAccount } from '../../../lib/account-query';
import type { GatewayModel } from '../../../lib/gateway-types';
import { useChatStream } from '../api/stream-chat-completion';
import { buildChatRequest } from '../build-chat-request';
import type { ChatMessage, Conversation } from '../chat-types';
import { createMessage, useConversationsStore } from '../stores/conversations-store';
import { ChatSettingsPanel } from './chat-settings-panel';
import { Composer } from './composer';
import { MessageItem } from './message-item';

interface Props {
  models: GatewayModel[];
  conversation: Conversation;
}

export function ChatPlayground({ models, conversation }: Props) {
  const { updateSettings, setMessages, updateMessage } = useConversationsStore();
  const stream = useChatStream();
  const [streamingId, setStreamingId] = useState<string | null>(null);
  const [showCode, setShowCode] = useState(false);
  const [draft, setDraft] = useState('');
  const currency = useAccount().data?.balance.currency;
  const listEnd = useRef<HTMLDivElement>(null);
  const model = resolveModel(models, conversation.settings.model);
  const settings = { ...conversation.settings, model };
  const supportsImages = models.find((m) => m.id === model)?.capabilities.includes('vision') ?? false;

  useEffect(() => {
    listEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [stream.text, conversation.messages.length]);

  /** Streams an answer to `history` (which ends with the user's message) and stores it. */
  const answer = async (history: ChatMessage[]) => {
    const reply: ChatMessage = { ...createMessage('assistant', ''), status: 'streaming', model };
    setMessages(conversation.id, [...history, reply]);
    setStreamingId(reply.id);
    const outcome = await stream.run(buildChatRequest(settings, history));
    setStreamingId(null);
    updateMessage(conversation.id, reply.id, {
      content: outcome.text,
      status: outcome.status,
      error: outcome.error,
      stats: outcome.stats ?? undefined,
    });
  };

  const send = (text: string, images: string[]) => {
    // A failed reply stays in the thread (with its error); buildChatRequest leaves it out of what is sent.
    void answer([...conversation.messages, createMessage('user', text, images)]);
  };
  const regenerate = (assistantId: string) => {
    const index = conversation.messages.findIndex((m) => m.id === assistantId);
    void answer(conversation.messages.slice(0, index));
  };
  const resend = (userId: string, content: string) => {
    const index = conversation.messages.findIndex((m) => m.id === userId);
    const edited = { ...conversation.messages[index], content };
    void answer([...conversation.messages.slice(0, index), edited]);
  };

  const codeRequest = () => {
    const pending = draft.trim() ? [createMessage('user', draft)] : [];
    const history = conversation.messages.filter((m) => m.status !== 'streaming');
    return { path: '/v1/chat/completions' as const, body: { ...buildChatRequest(settings, [...history, ...pending]) } };
  };

  const lastAssistant = [...conversation.messages].reverse().find((m) => m.role === 'assistant');

  return (
    <div className="split chat-layout">
      <section className="card chat-thread" aria-label="Conversation">
        <div className="chat-messages" aria-live="polite">
          {conversation.messages.length === 0 ? (
            <EmptyState icon="❝" title="Start the conversation">
              <span className="small">Pick a model, set a system prompt if you like, and send a message.</span>
            </EmptyState>
          ) : (
            conversation.messages.map((m) => (
              <MessageItem
                key={m.id}
                message={m}
                liveText={m.id === streamingId ? stream.text : undefined}
                busy={stream.running}
                canRegenerate={m.id === lastAssistant?.id}
                currency={currency}
                onResend={(content) => resend(m.id, content)}
                onRegenerate={() => regenerate(m.id)}
              />
            ))
          )}
          <div ref={listEnd} />
        </div>
        <Composer
          running={stream.running}
          disabled={!model}
          supportsImages={supportsImages}
          onSend={send}
          onStop={stream.stop}
          onDraftChange={setDraft}
        />
        <div className="row">
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setShowCode(true)}>
            {'</>'} View code
          </button>
        </div>
      </section>
      <ChatSettingsPanel
        models={models}
        settings={settings}
        onChange={(patch) => updateSettings(conversation.id, patch)}
      />
      {showCode && <CodeDialog request={codeRequest()} onClose={() => setShowCode(false)} />}
    </div>
  );
}
