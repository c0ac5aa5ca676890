import { useMutation } from '@tanstack/react-query';
import type { Transcript } from '../../../../../gateway/src/api/transcript/transcript-schemas';
import { getJson } from '../../../lib/gateway-client';

export interface TranscriptionRequest {
  file: Blob;
  filename: string;
  model?: string;
  language?: string;
}

export type { Transcript };
export type TranscriptSegment = NonNullable<Transcript['segments']>[number];

/** Multipart upload: the browser sets the Content-Type with its boundary. */
export function transcribe({ file, filename, model, language }: TranscriptionRequest): Promise<Transcript> {
  const form = new FormData();
  form.append('file', file, filename);
  if (model) form.append('model', model);
  if (language) form.append('language', language);
  form.append('response_format', 'verbose_json');
  return getJson('/transcript', { method: 'POST', body: form });
}

export const useTranscribe = () => useMutation({ mutationFn: transcribe });
