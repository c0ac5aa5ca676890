import { useState, type FormEvent } from 'react';
import { LongText } from '../../../components/long-text';
import { MarkdownView } from '../../../components/markdown-view';
import type { Agent } from '../agent-types';
import { useAgentStream, type AgentMessage } from '../api/stream-agent-completion';

/** A small conversation with one agent through /v1/agents/completions. */
export function AgentTryChat({ agent }: { agent: Agent }) {
  const [messages, setMessages] = useState<AgentMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const stream = useAgentStream();

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const history: AgentMessage[] = [...messages, { role: 'user', content: draft.trim() }];
    setMessages(history);
    setDraft('');
    setError(null);
    const outcome = await stream.run(agent.id, history);
    if (outcome.text) setMessages([...history, { role: 'assistant', content: outcome.text }]);
    if (outcome.status === 'error') setError(outcome.error ?? 'The agent did not answer.');
  };

  return (
    <section className="card stack" aria-label="Try the agent">
      <div className="card-title">
        <span className="grow">Try {agent.name}</span>
        {messages.length > 0 && (
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            onClick={() => setMessages([])}
            disabled={stream.running}
          >
            Clear
          </button>
        )}
      </div>
      <div className="agent-messages">
        {messages.length === 0 && !stream.running && (
          <p className="small muted">Messages go to the agent's model with its instructions as the system message.</p>
        )}
        {messages.map((m, i) => (
          <article key={i} className={`message message-${m.role}`} aria-label={m.role === 'user' ? 'You' : 'Agent'}>
            <div className="message-role">{m.role === 'user' ? 'You' : agent.name}</div>
            {m.role === 'user' ? <LongText text={m.content} /> : <MarkdownView source={m.content} />}
          </article>
        ))}
        {stream.running && (
          <article className="message message-assistant" aria-label="Agent">
            <div className="message-role">{agent.name}</div>
            {stream.text ? (
              <MarkdownView source={stream.text} />
            ) : (
              <span className="typing" aria-label="Waiting for the answer">
                <span />
                <span />
                <span />
              </span>
            )}
          </article>
        )}
      </div>
      {error && (
        <div className="notice notice-error" role="alert">
          <span className="notice-title">The agent did not answer</span>
          <span>{error}</span>
        </div>
      )}
      <form className="row" onSubmit={(e) => void send(e)}>
        <input
          className="input grow"
          aria-label="Message to the agent"
          placeholder="Ask the agent something"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        {stream.running ? (
          <button type="button" className="btn" onClick={stream.stop}>
            ■ Stop
          </button>
        ) : (
          <button type="submit" className="btn btn-primary" disabled={!draft.trim()}>
            Send
          </button>
        )}
      </form>
    </section>
  );
}
