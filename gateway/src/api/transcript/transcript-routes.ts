import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_TRANSCRIPTION_MODEL } from '../../wire/default-models.js';
import { sniffAudioFormat, wavDurationSeconds } from '../../media/audio/audio-format.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { toSrt, toVtt } from '../../core/audio/subtitles.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { numberField, readMultipart } from '../_shared/read-multipart.js';
import { recordUsage } from '../_shared/record-usage.js';
import { Transcript } from './transcript-schemas.js';

const FORMATS = ['json', 'text', 'verbose_json', 'srt', 'vtt'] as const;
type TranscriptFormat = (typeof FORMATS)[number];
const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
const MAX_DURATION_SECONDS = 2 * 60 * 60;

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
      const { models, runner } = app.services;
      const upload = await readMultipart(request);
      const { fields } = upload;
      const format = (fields.response_format ?? 'json') as TranscriptFormat;
      if (!FORMATS.includes(format)) throw new GatewayError(422, 'invalid_value', `Invalid request: 'response_format' must be one of ${FORMATS.join(', ')}.`, { param: 'response_format' });
      const temperature = numberField(fields, 'temperature', { min: 0, max: 1 });
      const route = models.resolve(fields.model || DEFAULT_TRANSCRIPTION_MODEL, 'transcription');
      if (!upload.file) throw new GatewayError(422, 'invalid_value', "Invalid request: 'file' (the audio) is required.", { param: 'file' });
      const audio = upload.file.content;
      if (audio.length === 0) throw new GatewayError(422, 'empty_audio', 'The audio file is empty.', { param: 'file' });
      if (audio.length > MAX_AUDIO_BYTES) throw new GatewayError(413, 'audio_too_large', `The audio file is larger than ${MAX_AUDIO_BYTES / 1024 / 1024} MB; split it into shorter parts.`, { param: 'file' });
      const sniffed = sniffAudioFormat(audio);
      if (!sniffed) throw new GatewayError(422, 'unsupported_audio_format', 'The file is not audio this gateway recognises: send WAV, MP3, OGG, FLAC, M4A/MP4 or WebM.', { param: 'file' });
      const duration = wavDurationSeconds(audio);
      if (duration !== undefined && duration > MAX_DURATION_SECONDS) {
        throw new GatewayError(413, 'audio_too_long', `The audio lasts ${Math.round(duration)} s; the limit is ${MAX_DURATION_SECONDS} s.`, { param: 'file' });
      }

      const signal = clientAbortSignal(reply);
      const { value: result, route: served } = await runner.run(route, 'transcription', signal, (candidate, attemptSignal) =>
        candidate.provider.capabilities.transcription!.transcribe({
          model: candidate.upstreamModel,
          audio,
          filename: upload.file!.filename,
          mimeType: sniffed.mimeType,
          language: fields.language || undefined,
          prompt: fields.prompt || undefined,
          temperature,
          signal: attemptSignal,
        }),
      );
      recordUsage(request, reply, served, { prompt_tokens: 0, completion_tokens: 0 });
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
