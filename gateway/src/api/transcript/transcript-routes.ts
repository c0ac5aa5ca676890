import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { toSrt, toVtt } from '../../core/audio/subtitles.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { numberField, readMultipart } from '../_shared/read-multipart.js';
import { Transcript } from './transcript-schemas.js';

const FORMATS = ['json', 'text', 'verbose_json', 'srt', 'vtt'] as const;
type TranscriptFormat = (typeof FORMATS)[number];

/**
 * POST /transcript (SPEC.md) and the OpenAI path /v1/audio/transcriptions: multipart `file` plus
 * optional `model`, `language`, `prompt`, `response_format`, `temperature`.
 */
export const transcriptRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const schema = {
    tags: ['transcription'],
    summary: 'Transcribe audio (multipart: file, model, language, prompt, response_format json|text|verbose_json|srt|vtt, temperature)',
    consumes: ['multipart/form-data'],
    response: { 200: Type.Union([Transcript, Type.String()]), ...errorResponses },
  };
  for (const path of ['/transcript', '/v1/audio/transcriptions']) {
    app.post(path, { config: { billable: true }, schema: path === '/transcript' ? schema : { ...schema, hide: true } }, async (request, reply) => {
      const upload = await readMultipart(request);
      const { fields } = upload;
      const format = (fields.response_format ?? 'json') as TranscriptFormat;
      if (!FORMATS.includes(format)) throw new GatewayError(422, 'invalid_value', `Invalid request: 'response_format' must be one of ${FORMATS.join(', ')}.`, { param: 'response_format' });
      const temperature = numberField(fields, 'temperature', { min: 0, max: 1 });
      const { result, route: served, declaredSeconds: duration } = await app.services.transcription.transcribe(
        { model: fields.model || undefined, file: upload.file, language: fields.language || undefined, prompt: fields.prompt || undefined, temperature },
        request.billing,
        clientAbortSignal(reply),
      );
      switch (format) {
        case 'text':
          return reply.type('text/plain; charset=utf-8').send(result.text);
        case 'srt':
          return reply.type('application/x-subrip; charset=utf-8').send(toSrt(result.segments));
        case 'vtt':
          return reply.type('text/vtt; charset=utf-8').send(toVtt(result.segments));
        case 'verbose_json':
          return { task: 'transcribe', language: result.language ?? fields.language ?? null, duration: result.duration ?? duration ?? null, text: result.text, segments: result.segments, model: served.id };
        default: {
          const seconds = result.duration ?? duration;
          const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, prompt_audio_seconds: seconds === undefined ? null : Math.ceil(seconds) };
          return { text: result.text, model: served.id, language: result.language ?? fields.language ?? null, usage };
        }
      }
    });
  }
};
