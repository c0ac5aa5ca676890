import { useEffect, useRef, useState } from 'react';
import { CodeDialog } from '../../../components/code-dialog';
import { EmptyState } from '../../../components/empty-state';
import { resolveModel } from '../../../components/model-picker';
import { useAccount } from '../../../lib/account-query';
import type { GatewayModel } from '../../../lib/gateway-types';
import type { TextStreamOutcome } from '../../../lib/use-text-stream';
import { useChatStream } from '../api/stream-chat-completion';
import { useResponseStream } from '../api/stream-response';
import { buildChatRequest } from '../build-chat-request';
import { buildApprovalRequest, buildResponsesRequest } from '../build-responses-request';
import type { ChatMessage, Conversation, ToolActivity, ToolCall } from '../chat-types';
import { createMessage, useConversationsStore } from '../stores/conversations-store';
import { ChatSettingsPanel } from './chat-settings-panel';
import { Composer } from './composer';
import { MessageItem } from './message-item';
import './tool-calls.css';

interface Props {
  models: GatewayModel[];
  conversation: Conversation;
}

const isPendingDecision = (entry: ToolActivity): entry is ToolCall => entry.kind === 'call' && !!entry.pendingDecision;

export function ChatPlayground({ models, conversation }: Props) {
  const { updateSettings, setMessages, updateMessage } = useConversationsStore();
  const stream = useChatStream();
  const responses = useResponseStream();
  const [streamingId, setStreamingId] = useState<string | null>(null);
  const [showCode, setShowCode] = useState(false);
  const [draft, setDraft] = useState('');
  const currency = useAccount().data?.balance.currency;
  const listEnd = useRef<HTMLDivElement>(null);
  const model = resolveModel(models, conversation.settings.model);
  const settings = { ...conversation.settings, model };
  const supportsImages = models.find((m) => m.id === model)?.capabilities.includes('vision') ?? false;
  // With MCP servers picked, the chat goes through the Responses API, which runs their tools.
  const usesTools = (settings.mcpServers ?? []).length > 0;
  const running = stream.running || responses.running;

  useEffect(() => {
    listEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [stream.text, responses.text, responses.tools, conversation.messages]);

  const finish = (id: string, outcome: TextStreamOutcome, more: Partial<ChatMessage> = {}) =>
    updateMessage(conversation.id, id, {
      content: outcome.text,
      status: outcome.status,
      error: outcome.error,
      stats: outcome.stats ?? undefined,
      ...more,
    });

  /** Streams an answer to `history` (which ends with the user's message) and stores it. */
  const answer = async (history: ChatMessage[]) => {
    const reply: ChatMessage = { ...createMessage('assistant', ''), status: 'streaming', model };
    setMessages(conversation.id, [...history, reply]);
    setStreamingId(reply.id);
    if (usesTools) {
      const outcome = await responses.run(buildResponsesRequest(settings, history), { text: '', tools: [] });
      setStreamingId(null);
      finish(reply.id, outcome, { tools: outcome.tools, responseId: outcome.responseId ?? undefined });
      return;
    }
    const outcome = await stream.run(buildChatRequest(settings, history));
    setStreamingId(null);
    finish(reply.id, outcome);
  };

  /** A person approved or denied a call; once every waiting call of the answer is decided, the answer goes on. */
  const decide = async (messageId: string, approvalRequestId: string, approve: boolean) => {
    const message = conversation.messages.find((m) => m.id === messageId);
    if (!message?.tools) return;
    const tools = message.tools.map((entry) =>
      entry.kind === 'call' && entry.state === 'awaiting_approval' && entry.approvalRequestId === approvalRequestId
        ? { ...entry, state: approve ? ('approved' as const) : ('denied' as const), pendingDecision: true }
        : entry,
    );
    const waiting = tools.some((entry) => entry.kind === 'call' && entry.state === 'awaiting_approval');
    if (waiting || !message.responseId) {
      updateMessage(conversation.id, messageId, { tools });
      return;
    }
    const decisions = tools.filter(isPendingDecision).map((call) => ({
      approvalRequestId: call.approvalRequestId ?? call.id,
      approve: call.state === 'approved',
    }));
    const sent = tools.map((entry) => (isPendingDecision(entry) ? { ...entry, pendingDecision: false } : entry));
    updateMessage(conversation.id, messageId, { tools: sent, status: 'streaming', error: undefined });
    setStreamingId(messageId);
    const outcome = await responses.run(buildApprovalRequest(settings, message.responseId, decisions), {
      text: message.content,
      tools: sent,
    });
    setStreamingId(null);
    finish(messageId, outcome, { tools: outcome.tools, responseId: outcome.responseId ?? message.responseId });
  };

  const send = (text: string, images: string[]) => {
    // A failed reply stays in the thread (with its error); the request builders leave it out of what is sent.
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
    const history = [...conversation.messages.filter((m) => m.status !== 'streaming'), ...pending];
    return usesTools
      ? { path: '/v1/responses' as const, body: { ...buildResponsesRequest(settings, history) } }
      : { path: '/v1/chat/completions' as const, body: { ...buildChatRequest(settings, history) } };
  };

  const lastAssistant = [...conversation.messages].reverse().find((m) => m.role === 'assistant');
  const live = responses.running ? responses : stream;

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
                liveText={m.id === streamingId ? live.text || m.content : undefined}
                liveTools={m.id === streamingId && responses.running ? responses.tools : undefined}
                busy={running}
                canRegenerate={m.id === lastAssistant?.id}
                currency={currency}
                onResend={(content) => resend(m.id, content)}
                onRegenerate={() => regenerate(m.id)}
                onDecide={(approvalRequestId, approve) => void decide(m.id, approvalRequestId, approve)}
              />
            ))
          )}
          <div ref={listEnd} />
        </div>
        <Composer
          running={running}
          disabled={!model}
          supportsImages={supportsImages}
          onSend={send}
          onStop={live.stop}
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
