import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../../src/lib/session-store';
import { TranscriptionPage } from '../../../../src/features/transcription/components/transcription-page';

const REASON =
  'no speech model installed: download one from the catalog (Models or Transcription page, POST /v1/local-models/downloads) or unpack a sherpa-onnx model into /data/models/speech/<name>/';
const model = (health: { state: string; reason?: string }) => ({
  id: 'svc-transcribe-1-2507',
  object: 'model',
  created: 0,
  owned_by: 'me',
  capabilities: ['transcription'],
  aliases: [],
  archived: false,
  provider: 'local-speech',
  state: health.state === 'unavailable' ? 'unavailable' : 'cold',
  health,
  fine_tuned: false,
  metadata: {},
});
const CATALOG = {
  object: 'list',
  data: [
    {
      id: 'whisper-tiny.en',
      name: 'Whisper tiny.en (sherpa-onnx, int8)',
      repo: 'csukuangfj/sherpa-onnx-whisper-tiny.en',
      file: 'a.onnx',
      files: ['a.onnx'],
      revision: 'main',
      size_bytes: 1,
      licence: 'MIT',
      ram_bytes: 1,
      capabilities: ['transcription'],
      model: 'svc-transcribe-1-2507',
      description: 'English speech to text',
    },
  ],
};

function stub(health: { state: string; reason?: string }) {
  useSessionStore.setState({ apiKey: 'k', baseUrl: '', source: 'web' });
  const answers: Record<string, unknown> = {
    '/models': { object: 'list', data: [model(health)] },
    '/v1/local-models/catalog': CATALOG,
    '/v1/local-models/downloads': { object: 'list', data: [] },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url in answers
        ? new Response(JSON.stringify(answers[url]), { status: 200, headers: { 'content-type': 'application/json' } })
        : new Response('{}', { status: 404 }),
    ),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <TranscriptionPage />
    </QueryClientProvider>,
  );
}

function pickAudio() {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File([new Uint8Array(8)], 'hello.wav', { type: 'audio/wav' })] } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('transcription page', () => {
  it('with no speech model: Transcribe stays disabled with one line saying why, and the catalog offers a speech model', async () => {
    stub({ state: 'unavailable', reason: REASON });
    const note = await screen.findByTestId('transcription-blocked');
    expect(note.textContent).toBe(`Cannot transcribe yet: ${REASON}`);
    pickAudio();
    expect((screen.getByRole('button', { name: 'Transcribe' }) as HTMLButtonElement).disabled).toBe(true);
    expect(await screen.findByText('Whisper tiny.en (sherpa-onnx, int8)')).toBeTruthy();
  });

  it('with a speech model that loads on first use: Transcribe is enabled and nothing is in the way', async () => {
    stub({ state: 'cold' });
    await screen.findByRole('button', { name: 'Transcribe' });
    pickAudio();
    expect((screen.getByRole('button', { name: 'Transcribe' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByTestId('transcription-blocked')).toBeNull();
    expect(screen.queryByText('Whisper tiny.en (sherpa-onnx, int8)')).toBeNull();
  });
});
