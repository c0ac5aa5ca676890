import { FormData } from 'undici';
import type {
  TranscriptionProvider,
  TranscriptionRequest,
  TranscriptionResult,
  TranscriptSegment,
} from '../contracts/transcription.js';
import { ProviderError } from '../_shared/provider-error.js';
import type { UpstreamClient } from '../_shared/http/upstream-client.js';
import { expectRecord, isRecord, optionalNumber, optionalString } from '../_shared/http/wire-guards.js';

/**
 * Speech to text over `POST <base>/audio/transcriptions` (multipart), asking for `verbose_json`
 * to get segments; falls back to `json` (text only) when the upstream rejects verbose_json.
 */
export function createOpenAiTranscription(client: UpstreamClient): TranscriptionProvider {
  const post = (request: TranscriptionRequest, format: 'verbose_json' | 'json'): Promise<unknown> =>
    client.postJson({
      path: '/audio/transcriptions',
      body: { form: transcriptionForm(request, format) },
      signal: request.signal,
    });

  return {
    async transcribe(request: TranscriptionRequest): Promise<TranscriptionResult> {
      let answer: unknown;
      try {
        answer = await post(request, 'verbose_json');
      } catch (error) {
        if (!(error instanceof ProviderError && error.kind === 'invalid_request' && rejectsVerboseJson(error)))
          throw error;
        answer = await post(request, 'json');
      }
      return readTranscription(answer, client.name);
    },
  };
}

function transcriptionForm(request: TranscriptionRequest, format: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([request.audio], { type: request.mimeType }), request.filename);
  form.append('model', request.model);
  form.append('response_format', format);
  if (request.language) form.append('language', request.language);
  if (request.prompt) form.append('prompt', request.prompt);
  if (request.temperature !== undefined) form.append('temperature', String(request.temperature));
  return form;
}

function rejectsVerboseJson(error: ProviderError): boolean {
  return error.param === 'response_format' || /response_format|verbose_json/.test(error.message);
}

function readTranscription(answer: unknown, providerName: string): TranscriptionResult {
  const record = expectRecord(answer, providerName, 'the answer');
  const segments: TranscriptSegment[] = (Array.isArray(record.segments) ? record.segments : [])
    .filter(isRecord)
    .map((segment, position) => ({
      id: optionalNumber(segment.id) ?? position,
      start: optionalNumber(segment.start) ?? 0,
      end: optionalNumber(segment.end) ?? 0,
      text: (optionalString(segment.text) ?? '').trim(),
    }));
  const language = optionalString(record.language);
  const duration = optionalNumber(record.duration);
  return {
    text: (optionalString(record.text) ?? segments.map((segment) => segment.text).join(' ')).trim(),
    ...(language ? { language } : {}),
    ...(duration !== undefined ? { duration } : {}),
    segments,
  };
}
