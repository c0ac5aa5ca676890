import { Type, type Static } from '@sinclair/typebox';
import { TranscriptSegment } from '../../wire/transcript-segment-schema.js';
import { UsageWith } from '../../wire/usage-schema.js';

export const Transcript = Type.Object(
  {
    text: Type.String(),
    model: Type.String(),
    task: Type.Optional(Type.String()),
    language: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    duration: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    segments: Type.Optional(Type.Array(TranscriptSegment)),
    usage: Type.Optional(
      UsageWith(
        { prompt_audio_seconds: Type.Union([Type.Integer(), Type.Null()]) },
        { description: "Mistral's usage: audio seconds when known" },
      ),
    ),
  },
  {
    description:
      'json: {text, model, language, usage}; verbose_json adds task, language, duration (seconds) and segments; text, srt and vtt answer in those text formats.',
  },
);
export type Transcript = Static<typeof Transcript>;
