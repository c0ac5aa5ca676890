import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatPage } from '../../../../src/features/chat/components/chat-page';
import { useConversationsStore } from '../../../../src/features/chat/stores/conversations-store';
import { useEvalDraftStore } from '../../../../src/lib/eval-draft-store';
import { useSessionStore } from '../../../../src/lib/session-store';
import { chatModelList } from '../../../support/chat-model-card';
import { renderPage } from '../../../support/render-page';

/** What each model's stream was billed: only its request log entry says (a stream carries no X-Request-Cost). */
const LOGGED_COST: Record<string, number> = { 'req-svc-small': 0.25, 'req-svc-big': 0.5 };

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** A whole stream: the answer names the model, then the usage frame, then [DONE]. */
function answerStream(modelId: string): Response {
  const frames = [
    { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: `answer from ${modelId}` } }] },
    {
      object: 'chat.completion.chunk',
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    },
  ];
  const text = `${frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('')}data: [DONE]\n\n`;
  return new Response(text, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'x-request-id': `req-${modelId}` },
  });
}

let sent: { model: string; messages: unknown }[] = [];

beforeEach(() => {
  localStorage.clear();
  sent = [];
  useSessionStore.setState({ apiKey: 'sk-test', baseUrl: '', source: 'web' });
  useConversationsStore.setState({ conversations: [], activeId: null });
  useEvalDraftStore.setState({ items: [] });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/models') return json(chatModelList('svc-small', 'svc-big'));
      if (url === '/account/me') return new Response('{}', { status: 404 });
      if (url === '/v1/chat/completions') {
        const body = JSON.parse(String(init?.body)) as { model: string; messages: unknown };
        sent.push(body);
        return answerStream(body.model);
      }
      const logged = /^\/console\/requests\/(.+)$/.exec(url);
      if (logged) return json({ id: logged[1], cost: LOGGED_COST[logged[1]] });
      throw new Error(`unexpected ${url}`);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the chat playground compare mode', () => {
  it("sends one prompt to each model on its own stream, shows each answer with its logged cost, and saves an answer as an eval item's reference", async () => {
    renderPage(<ChatPage />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Compare models' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Prompt for every model' }), {
      target: { value: 'Which is bigger?' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send to 2 models' }));

    const second = screen.getByRole('region', { name: 'Answer 2' });
    await within(second).findByText('answer from svc-big');
    expect(sent.map((body) => body.model)).toEqual(['svc-small', 'svc-big']);
    expect(sent[0].messages).toEqual(sent[1].messages);
    await waitFor(() => expect(second.textContent).toContain('0.5000 USD'));
    const first = screen.getByRole('region', { name: 'Answer 1' });
    expect(first.textContent).toContain('answer from svc-small');
    await waitFor(() => expect(first.textContent).toContain('0.2500 USD'));

    fireEvent.click(within(second).getByRole('button', { name: 'Save the prompt with answer 2 as an eval item' }));
    expect(useEvalDraftStore.getState().items).toEqual([
      { input: 'Which is bigger?', expected: 'answer from svc-big' },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Save the prompt as an eval item' }));
    expect(useEvalDraftStore.getState().items[1]).toEqual({ input: 'Which is bigger?' });
  });
});
