import type { TranscriptSegment } from '../../wire/transcript-segment-schema.js';

export interface TranscriptionRequest {
  model: string;
  audio: Buffer;
  filename: string;
  mimeType: string;
  language?: string;
  prompt?: string;
  temperature?: number;
  signal: AbortSignal;
}

export type { TranscriptSegment };

export interface TranscriptionResult {
  text: string;
  language?: string;
  /** seconds */
  duration?: number;
  segments: TranscriptSegment[];
}

export interface TranscriptionProvider {
  transcribe(request: TranscriptionRequest): Promise<TranscriptionResult>;
}
