import { useState } from 'react';
import { LongText } from '../../../components/long-text';
import { MarkdownView } from '../../../components/markdown-view';
import { StreamStatsView } from '../../../components/stream-stats-view';
import type { ChatMessage, ToolActivity } from '../chat-types';
import { ToolActivityList } from './tool-activity-list';

interface Props {
  message: ChatMessage;
  /** Live text while this message is being streamed. */
  liveText?: string;
  /** Live tool calls while this message is being streamed. */
  liveTools?: ToolActivity[];
  busy: boolean;
  canRegenerate: boolean;
  currency?: string;
  onResend(content: string): void;
  onRegenerate(): void;
  onDecide(approvalRequestId: string, approve: boolean): void;
}

export function MessageItem({
  message,
  liveText,
  liveTools,
  busy,
  canRegenerate,
  currency,
  onResend,
  onRegenerate,
  onDecide,
}: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const text = liveText ?? message.content;
  const streaming = liveText !== undefined;
  return (
    <article
      className={`message message-${message.role}`}
      aria-label={message.role === 'user' ? 'You' : 'Assistant'}
      data-status={message.status}
    >
      <div className="message-role">
        {message.role === 'user' ? 'You' : 'Assistant'}
        {message.model && <span className="faint small mono"> · {message.model}</span>}
        {message.status === 'stopped' && <span className="badge badge-warn">stopped</span>}
      </div>
      {draft !== null ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            onResend(draft);
            setDraft(null);
          }}
        >
          <textarea
            className="textarea"
            aria-label="Edit message"
            rows={4}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            autoFocus
          />
          <div className="row">
            <button type="submit" className="btn btn-primary btn-sm" disabled={busy || !draft.trim()}>
              Save and resend
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          {message.images.length > 0 && (
            <div className="message-images">
              {message.images.map((src, i) => (
                <img key={i} src={src} alt={`Attached image ${i + 1}`} />
              ))}
            </div>
          )}
          <ToolActivityList
            tools={liveTools ?? message.tools ?? []}
            canDecide={canRegenerate && !busy}
            onDecide={onDecide}
          />
          {message.role === 'assistant' ? (
            text ? (
              <MarkdownView source={text} />
            ) : streaming ? (
              <span className="typing" aria-label="Waiting for the first token">
                <span />
                <span />
                <span />
              </span>
            ) : null
          ) : (
            <LongText text={text} />
          )}
          {message.error && (
            <div className="notice notice-error small" role="alert">
              {message.error}
            </div>
          )}
        </>
      )}
      {!streaming && draft === null && (
        <div className="message-footer">
          {message.stats && <StreamStatsView stats={message.stats} currency={currency} />}
          <span className="grow" />
          {message.role === 'user' && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={busy}
              onClick={() => setDraft(message.content)}
            >
              Edit
            </button>
          )}
          {message.role === 'assistant' && canRegenerate && (
            <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={onRegenerate}>
              ↻ Regenerate
            </button>
          )}
          {message.role === 'assistant' && text && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => void navigator.clipboard?.writeText(text)}
            >
              Copy
            </button>
          )}
        </div>
      )}
    </article>
  );
}
