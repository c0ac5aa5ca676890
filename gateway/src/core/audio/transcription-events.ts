import type { TranscriptionResult } from '../../providers/contracts/transcription.js';

/** A transcript in Mistral's shape (the SDK's `TranscriptionResponse`, and the last streamed event's body). */
export interface MistralTranscript {
  text: string;
  model: string;
  language: string | null;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_audio_seconds: number | null;
  };
}

export function mistralTranscript(
  result: TranscriptionResult,
  model: string,
  language: string | null,
  seconds: number | undefined,
): MistralTranscript {
  return {
    text: result.text,
    model,
    language,
    usage: {
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
      prompt_audio_seconds: seconds === undefined ? null : Math.ceil(seconds),
    },
  };
}

/**
 * A finished transcript as Mistral's transcription stream events (`audio.transcriptions.stream`):
 * the language when known, each segment, the text, then transcription.done. Upstreams answer
 * transcription whole, so the events leave together once it is done.
 */
export function transcriptionEvents(
  result: TranscriptionResult,
  transcript: MistralTranscript,
): ({ type: string } & Record<string, unknown>)[] {
  const segments = result.segments.map((segment) => ({
    type: 'transcription_segment',
    text: segment.text,
    start: segment.start,
    end: segment.end,
  }));
  return [
    ...(transcript.language ? [{ type: 'transcription.language', audio_language: transcript.language }] : []),
    ...segments.map((segment) => ({ ...segment, type: 'transcription.segment' })),
    { type: 'transcription.text.delta', text: result.text },
    { type: 'transcription.done', ...transcript, segments },
  ];
}
