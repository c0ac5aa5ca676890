import { Type, type Static } from '@sinclair/typebox';

/** A stretch of a transcript, its start and end in seconds from the beginning of the audio. */
export const TranscriptSegment = Type.Object({
  id: Type.Integer(),
  start: Type.Number(),
  end: Type.Number(),
  text: Type.String(),
});
export type TranscriptSegment = Static<typeof TranscriptSegment>;
