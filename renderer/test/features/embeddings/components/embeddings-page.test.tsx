import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../../src/lib/session-store';
import { EmbeddingsPage } from '../../../../src/features/embeddings/components/embeddings-page';
import { renderPage } from '../../../support/render-page';

const model = (state: 'cold' | 'ready') => ({
  id: 'svc-embed-local',
  object: 'model',
  created: 0,
  owned_by: 'switchyard-local',
  capabilities: ['embeddings'],
  aliases: [],
  archived: false,
  provider: 'local-embed',
  state,
  breaker_state: 'closed',
  fine_tuned: false,
  metadata: {},
});
const jsonResponse = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

beforeEach(() => useSessionStore.setState({ apiKey: 'sk-test', baseUrl: '', source: 'web' }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Embeddings page', () => {
  it('stops calling the model cold once a request has loaded it', async () => {
    // The gateway loads the model on the first request: from then on it reports it ready.
    let loaded = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/models') return jsonResponse({ object: 'list', data: [model(loaded ? 'ready' : 'cold')] });
        if (url === '/v1/embeddings') {
          loaded = true;
          return jsonResponse({
            object: 'list',
            model: 'svc-embed-local',
            data: [0, 1, 2].map((index) => ({ object: 'embedding', index, embedding: [1, index] })),
            usage: { prompt_tokens: 3, total_tokens: 3 },
          });
        }
        throw new Error(`unexpected ${url}`);
      }),
    );
    renderPage(<EmbeddingsPage />);
    const picker = await screen.findByRole('combobox', { name: 'Model' }, { timeout: 5000 });
    expect(picker.textContent).toBe('svc-embed-local (cold)');
    fireEvent.click(screen.getByRole('button', { name: 'Embed and compare' }));
    await screen.findByTestId('vector-list', {}, { timeout: 5000 });
    await vi.waitFor(
      () => expect(screen.getByRole('combobox', { name: 'Model' }).textContent).toBe('svc-embed-local'),
      { timeout: 5000 },
    );
  });
});
