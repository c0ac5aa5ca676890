import type { FastifyPluginAsync } from 'fastify';
import { CAPABILITIES } from '../../providers/contracts/capability.js';
import { registerNotServed } from '../_shared/not-served.js';

/**
 * Text to speech and voices (Mistral's `audio.speech`, `audio.voices`; OpenAI's `audio.speech`). The
 * gateway's capabilities have no speech synthesis to route to, so each path says so.
 */
export const speechRoutes: FastifyPluginAsync = async (app) => {
  registerNotServed(
    app,
    'transcription',
    [
      {
        method: 'POST',
        url: '/v1/audio/speech',
        operationId: 'createSpeech',
        summary: 'Text to speech (not served: no speech synthesis backend)',
      },
      {
        method: 'GET',
        url: '/v1/audio/voices',
        operationId: 'listVoices',
        summary: 'Voices (not served: no speech synthesis backend)',
      },
      {
        method: 'POST',
        url: '/v1/audio/voices',
        operationId: 'createVoice',
        summary: 'Create a voice (not served: no speech synthesis backend)',
      },
      { method: ['GET', 'PATCH', 'DELETE'], url: '/v1/audio/voices/*' },
    ],
    (url) =>
      `${url.replace('/*', '/…')} is not served: this gateway has no text-to-speech backend (a model route serves ${CAPABILITIES.join(', ')}). Call a provider that offers speech synthesis directly.`,
  );
};
