import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { toSrt, toVtt } from '../../wire/subtitles.js';
import { ownerScope } from '../../core/account/resource-owner.js';
import type { TranscriptionService } from '../../core/audio/transcription-service.js';
import { mistralTranscript, transcriptionEvents } from '../../core/audio/transcription-events.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { sendEventStream, type StreamEnding } from '../_shared/event-stream.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { numberField, readMultipart, type UploadIntake } from '../_shared/read-multipart.js';
import { Transcript } from './transcript-schemas.js';

/** Transcription streams end without `[DONE]` (Mistral's SDK parses every frame as an event). */
const FINISH_ONLY: StreamEnding = { done: (writer) => writer.finish(), fail: (writer) => writer.finish() };

const FORMATS = ['json', 'text', 'verbose_json', 'srt', 'vtt'] as const;
type TranscriptFormat = (typeof FORMATS)[number];

/**
 * POST /transcript (SPEC.md) and the OpenAI path /v1/audio/transcriptions: multipart `file` plus
 * optional `model`, `language`, `prompt`, `response_format`, `temperature`, and `stream` (Mistral's
 * transcription events, for the json format). Instead of `file`, Mistral's `file_id` (a stored file)
 * or `file_url`.
 */
export const transcriptRoutes: FastifyPluginAsyncTypebox<{
  transcription: TranscriptionService;
  uploads: UploadIntake;
}> = async (app, { transcription, uploads }) => {
  const schema = {
    tags: ['transcription'],
    summary:
      'Transcribe audio (multipart: file, model, language, prompt, response_format json|text|verbose_json|srt|vtt, temperature, stream: Mistral transcription events)',
    consumes: ['multipart/form-data'],
    response: { 200: Type.Union([Transcript, Type.String()]), ...errorResponses },
  };
  for (const path of ['/transcript', '/v1/audio/transcriptions']) {
    app.post(
      path,
      { config: { billable: true }, schema: path === '/transcript' ? schema : { ...schema, hide: true } },
      async (request, reply) => {
        const upload = await readMultipart(request, reply, uploads);
        const { fields } = upload;
        const format = (fields.response_format ?? 'json') as TranscriptFormat;
        if (!FORMATS.includes(format))
          throw new GatewayError(
            422,
            'invalid_value',
            `Invalid request: 'response_format' must be one of ${FORMATS.join(', ')}.`,
            { param: 'response_format' },
          );
        const temperature = numberField(fields, 'temperature', { min: 0, max: 1 });
        const {
          result,
          route: served,
          declaredSeconds: duration,
        } = await transcription.transcribe(
          {
            model: fields.model || undefined,
            upload: upload.file && { content: await upload.file.read(), filename: upload.file.filename },
            source: fields,
            owner: ownerScope(request.apiKey),
            language: fields.language || undefined,
            prompt: fields.prompt || undefined,
            temperature,
          },
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
            return {
              task: 'transcribe',
              language: result.language ?? fields.language ?? null,
              duration: result.duration ?? duration ?? null,
              text: result.text,
              segments: result.segments,
              model: served.id,
            };
          default: {
            const transcript = mistralTranscript(
              result,
              served.id,
              result.language ?? fields.language ?? null,
              result.duration ?? duration,
            );
            if (fields.stream !== 'true') return transcript;
            return sendEventStream(
              request,
              reply,
              served.provider.id,
              async (writer) => {
                for (const event of transcriptionEvents(result, transcript)) await writer.sendEvent(event.type, event);
              },
              FINISH_ONLY,
            );
          }
        }
      },
    );
  }
};
