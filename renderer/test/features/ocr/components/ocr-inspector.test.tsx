import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GatewayModel } from '../../../../src/lib/gateway-types';
import { createQueryClient } from '../../../../src/lib/query-client';
import { useSessionStore } from '../../../../src/lib/session-store';
import { OcrInspector } from '../../../../src/features/ocr/components/ocr-inspector';

const MODELS = [
  {
    id: 'svc-ocr-3-2512',
    object: 'model',
    created: 0,
    owned_by: 'switchyard-local',
    capabilities: ['ocr'],
    aliases: [],
    archived: false,
    provider: 'local-ocr',
    state: 'ready',
    health: { state: 'ready', reason: 'the OCR engine is ready' },
    breaker_state: 'closed',
    fine_tuned: false,
    metadata: {},
  },
] as GatewayModel[];
const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  useSessionStore.setState({ apiKey: 'sk-test', baseUrl: '', source: 'web' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/models') return jsonResponse({ object: 'list', data: MODELS });
      if (url === '/v1/ocr')
        return jsonResponse(
          {
            object: 'error',
            message: 'The OCR engine is busy.',
            type: 'server_error',
            param: null,
            code: 'engine_busy',
          },
          503,
        );
      throw new Error(`unexpected ${url}`);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('OCR inspector', () => {
  it('clears the last error card on a new attempt, also when the new file is refused', async () => {
    const { container } = render(
      <QueryClientProvider client={createQueryClient()}>
        <OcrInspector models={MODELS} />
      </QueryClientProvider>,
    );
    const input = () => container.querySelector<HTMLInputElement>('input[type="file"]')!;
    fireEvent.change(input(), {
      target: { files: [new File([new Uint8Array([137, 80, 78, 71])], 'scan.png', { type: 'image/png' })] },
    });
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toContain('OCR failed');

    fireEvent.change(input(), { target: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] } });
    const alerts = await screen.findAllByRole('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].textContent).toContain('notes.txt is not an image or a PDF');
  });
});
