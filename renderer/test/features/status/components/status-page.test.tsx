import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../../src/lib/session-store';
import { StatusPage } from '../../../../src/features/status/components/status-page';

const UNREACHABLE = { state: 'unreachable', reason: 'the last test failed: connect ECONNREFUSED 127.0.0.1:9' };
const NO_SPEECH_MODEL = {
  state: 'unavailable',
  reason: 'svc-transcribe-1: no speech model found in /data/models/speech',
};
const closed = { state: 'closed', consecutive_failures: 0, retry_after_seconds: null };

/** A gateway whose upstream refuses connections and whose speech engine has no model: what /status and /models answer. */
const ANSWERS: Record<string, unknown> = {
  '/status': {
    status: 'ok',
    response_ms: 1,
    version: '0.1.0',
    instance_id: 'i',
    uptime_seconds: 5,
    checks: { asr: false, ocr: true },
    capabilities: { ocr: { state: 'ready' }, transcription: NO_SPEECH_MODEL },
    providers: [
      {
        id: 'refused',
        type: 'openai',
        kind: 'upstream',
        state: 'ready',
        breaker: closed,
        health: UNREACHABLE,
        last_test: { ok: false, latency_ms: 2 },
      },
      {
        id: 'local-ocr',
        type: 'tesseract',
        kind: 'local',
        state: 'ready',
        breaker: closed,
        health: { state: 'ready' },
      },
    ],
  },
  '/models': {
    object: 'list',
    data: [
      {
        id: 'refused-model',
        object: 'model',
        created: 0,
        owned_by: 'me',
        capabilities: ['chat'],
        aliases: [],
        archived: false,
        provider: 'refused',
        state: 'unavailable',
        state_detail: UNREACHABLE.reason,
        health: UNREACHABLE,
        breaker_state: 'closed',
        fine_tuned: false,
        metadata: {},
      },
      {
        id: 'svc-ocr-3-2512',
        object: 'model',
        created: 0,
        owned_by: 'me',
        capabilities: ['ocr'],
        aliases: [],
        archived: false,
        provider: 'local-ocr',
        state: 'ready',
        health: { state: 'ready' },
        breaker_state: 'closed',
        fine_tuned: false,
        metadata: {},
      },
    ],
  },
};

function stubGateway() {
  useSessionStore.setState({ apiKey: 'k', baseUrl: '', source: 'web' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = url.split('?')[0];
      if (path in ANSWERS)
        return new Response(JSON.stringify(ANSWERS[path]), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
    }),
  );
}

function renderPage(page: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{page}</MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('one health on every page', () => {
  it('Status: the refused upstream is unreachable, its model is not among the loaded ones, and transcription says why it cannot serve (not "no route")', async () => {
    stubGateway();
    renderPage(<StatusPage />);
    const row = await screen.findByRole('row', { name: 'refused' });
    expect(within(row).getByTestId('provider-state').textContent).toBe('unreachable');
    expect(within(row).getByText(UNREACHABLE.reason)).toBeTruthy();
    const loaded = await screen.findByRole('region', { name: 'Loaded models' });
    await within(loaded).findByText(/svc-ocr-3-2512/);
    expect(within(loaded).queryByText(/refused-model/)).toBeNull();
    const transcription = screen.getByTestId('capability-transcription');
    expect(transcription.textContent).toBe('Transcription unavailable');
    expect(transcription.getAttribute('title')).toBe(NO_SPEECH_MODEL.reason);
    expect(screen.getByTestId('capability-ocr').textContent).toBe('OCR served');
  });
});

describe('the link to the metrics', () => {
  it("opens the console's Metrics page for an Owner (a bare link to /metrics would be refused without the key), and is not offered to a Member", async () => {
    for (const role of ['owner', 'member']) {
      useSessionStore.setState({ apiKey: 'k', baseUrl: '', source: 'web' });
      const answers: Record<string, unknown> = {
        ...ANSWERS,
        '/account/me': { object: 'account', api_key: { role, prefix: 'sk-sy-ab' }, balance: { currency: 'USD' } },
      };
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string) => {
          const path = url.split('?')[0];
          if (path in answers)
            return new Response(JSON.stringify(answers[path]), {
              status: 200,
              headers: { 'content-type': 'application/json' },
            });
          return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
        }),
      );
      renderPage(<StatusPage />);
      await screen.findByRole('row', { name: 'refused' });
      if (role === 'owner') {
        const link = await screen.findByRole('link', { name: 'Prometheus metrics' });
        expect(link.getAttribute('href')).toBe('/metrics');
        expect(link.getAttribute('target')).toBeNull();
      } else {
        await screen.findByText(/only Owners can read/);
        expect(screen.queryByRole('link', { name: /Prometheus metrics/ })).toBeNull();
      }
      cleanup();
    }
  });
});
