import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReplayPanel } from '../../../../src/features/requests/components/replay-panel';
import { createQueryClient } from '../../../../src/lib/query-client';
import { useSessionStore } from '../../../../src/lib/session-store';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';
import { chatModelList } from '../../../support/chat-model-card';

const MODELS = chatModelList('svc-large', 'svc-small', 'svc-tiny');

const ENTRY: RequestLogEntry = {
  id: 'req_original',
  time: 0,
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  latency_ms: 40,
  key_prefix: 'sk-sy-ab',
  model: 'svc-large',
  prompt_tokens: 3,
  completion_tokens: 3,
  cost: 0.001,
  client: null,
  request_headers: { 'content-type': 'application/json' },
  request_body: JSON.stringify({ model: 'svc-large', messages: [{ role: 'user', content: 'hi' }], stream: true }),
};

const HOSTILE = '<img src=x onerror="window.hacked=1"> **not markdown**';

function answer(modelId: string, content: string) {
  return {
    object: 'request.replay',
    request_id: `req_${modelId}`,
    replay_of: 'req_original',
    status: 200,
    model: modelId,
    stream: true,
    latency_ms: 123.4,
    ttft_ms: 45.6,
    usage: { prompt_tokens: 3, completion_tokens: 7 },
    cost: 0.0021,
    body: { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content } }] },
  };
}

const sent: { url: string; body: unknown }[] = [];

beforeEach(() => {
  sent.length = 0;
  useSessionStore.setState({ apiKey: 'sk-test', baseUrl: '', source: 'web' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const reply = (body: unknown) =>
        new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      if (url === '/models') return reply(MODELS);
      if (url === '/account/me') return new Response('{}', { status: 404 });
      if (url === '/console/requests/req_original/replay') {
        const body = JSON.parse(String(init?.body)) as { model?: string };
        sent.push({ url, body });
        return reply(
          answer(body.model ?? 'svc-large', body.model === 'svc-small' ? HOSTILE : `answer of ${body.model}`),
        );
      }
      return new Response('{}', { status: 404 });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderPanel = (entry: RequestLogEntry, onOpenRequest = vi.fn()) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ReplayPanel entry={entry} currency="USD" onOpenRequest={onOpenRequest} />
    </QueryClientProvider>,
  );

describe('replay and compare in the request drawer', () => {
  it('replays to another model and shows its answer as text with latency, first token, tokens and cost', async () => {
    const onOpenRequest = vi.fn();
    renderPanel(ENTRY, onOpenRequest);
    const picker = screen.getByLabelText('Model to replay with');
    await within(picker).findByRole('option', { name: 'svc-small' });
    // The request's own model is the default, not listed twice.
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Same model (svc-large)', 'svc-small', 'svc-tiny']);
    fireEvent.change(picker, { target: { value: 'svc-small' } });
    fireEvent.click(screen.getByRole('button', { name: 'Replay' }));
    const result = await screen.findByRole('article', { name: 'Answer of svc-small' });
    expect(sent).toEqual([{ url: '/console/requests/req_original/replay', body: { model: 'svc-small' } }]);
    expect(within(result).getByTestId('replay-answer').textContent).toBe(HOSTILE);
    expect(result.querySelector('img, strong')).toBeNull();
    expect(result.textContent).toContain('123 ms');
    expect(result.textContent).toContain('First token46 ms');
    expect(result.textContent).toContain('3 / 7');
    expect(result.textContent).toContain('0.0021');
    fireEvent.click(within(result).getByRole('button', { name: 'Open this request in the log' }));
    expect(onOpenRequest).toHaveBeenCalledWith('req_svc-small');
  });

  it('compares 2 to 4 models side by side', async () => {
    renderPanel(ENTRY);
    fireEvent.click(screen.getByRole('button', { name: 'Compare models…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Compare models' });
    const send = () => within(dialog).getByRole('button', { name: /Send to/ });
    // The request's own model is picked; one more is needed.
    expect(send()).toHaveProperty('disabled', true);
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'svc-tiny' }));
    expect(send().textContent).toBe('Send to 2 models');
    fireEvent.click(send());
    await waitFor(() => expect(within(dialog).getAllByTestId('replay-result')).toHaveLength(2));
    expect(sent.map((request) => request.body)).toEqual([{ model: 'svc-large' }, { model: 'svc-tiny' }]);
    expect(
      within(dialog)
        .getAllByTestId('replay-answer')
        .map((answerText) => answerText.textContent),
    ).toEqual(['answer of svc-large', 'answer of svc-tiny']);
  });

  it('says why instead of failing when the body was not kept or the request cannot be sent again', () => {
    const { request_body: _body, ...withoutBody } = ENTRY;
    renderPanel(withoutBody);
    expect(screen.getByRole('button', { name: 'Replay' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Compare models…' })).toHaveProperty('disabled', true);
    const why = screen.getByTestId('replay-unavailable');
    expect(why.textContent).toMatch(/did not keep this request’s body/);
    expect(screen.getByRole('button', { name: 'Replay' }).getAttribute('aria-describedby')).toBe(why.id);
    cleanup();
    renderPanel({ ...ENTRY, request_headers: { 'content-type': 'multipart/form-data; boundary=x' }, path: '/v1/ocr' });
    expect(screen.getByTestId('replay-unavailable').textContent).toMatch(/uploaded a file/);
    cleanup();
    renderPanel({ ...ENTRY, path: '/account/keys' });
    expect(screen.getByTestId('replay-unavailable').textContent).toMatch(/Only requests to the JSON endpoints/);
    expect(sent).toEqual([]);
  });
});
