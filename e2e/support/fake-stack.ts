import {
  startFakeUpstream,
  type FakeUpstream,
  type FakeUpstreamOptions,
} from '../../gateway/test/support/fake-upstream.js';
import { startGateway, type RunningGateway } from './gateway.js';

export interface FakeStack {
  gateway: RunningGateway;
  upstream: FakeUpstream;
  stop(): Promise<void>;
}

export const CHAT_MODEL = 'svc-large-3-2512';
export const IMAGE_MODEL = 'svc-vision-3-1-2505';
export const TRANSCRIBE_MODEL = 'svc-transcribe-1-2507';

/**
 * The gateway in front of the fake OpenAI-compatible upstream for chat, completions, embeddings,
 * images and transcription (plus `extraModels` routed to it); OCR stays on the built-in local engine.
 * `upstreamOptions` change the fake's answers (e.g. `toolLoop` for a model that calls tools);
 * `extraConfig` may be made from the upstream's URL (more providers on it).
 */
export async function startFakeStack(
  extraModels: Record<string, unknown>[] = [],
  extraConfig: Record<string, unknown> | ((upstreamUrl: string) => Record<string, unknown>) = {},
  upstreamOptions: FakeUpstreamOptions = {},
): Promise<FakeStack> {
  const upstream = await startFakeUpstream({ apiKey: 'sk-upstream', images: 'b64_json', ...upstreamOptions });
  try {
    const extra = typeof extraConfig === 'function' ? extraConfig(upstream.url) : extraConfig;
    const gateway = await startGateway({
      providers: [{ id: 'fake', type: 'openai', base_url: upstream.url, api_key: 'sk-upstream' }],
      models: [
        {
          id: CHAT_MODEL,
          provider: 'fake',
          upstream_model: 'fake-chat',
          capabilities: ['chat', 'completions', 'embeddings'],
        },
        {
          id: IMAGE_MODEL,
          provider: 'fake',
          upstream_model: 'fake-image',
          capabilities: ['image_generation', 'vision'],
        },
        { id: TRANSCRIBE_MODEL, provider: 'fake', upstream_model: 'fake-whisper', capabilities: ['transcription'] },
        ...extraModels,
      ],
      ...extra,
    });
    return {
      gateway,
      upstream,
      stop: async () => {
        await gateway.stop();
        await upstream.close();
      },
    };
  } catch (error) {
    await upstream.close();
    throw error;
  }
}
