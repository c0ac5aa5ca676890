/** SubRip and WebVTT, the transcript's subtitle formats: the gateway answers them and the console downloads them. */
import type { TranscriptSegment } from './transcript-segment-schema.js';

function timestamp(seconds: number, separator: ',' | '.'): string {
  const totalMs = Math.max(0, Math.round(seconds * 1000));
  const hours = Math.floor(totalMs / 3_600_000);
  const minutes = Math.floor((totalMs % 3_600_000) / 60_000);
  const secs = Math.floor((totalMs % 60_000) / 1000);
  const ms = totalMs % 1000;
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)}${separator}${pad(ms, 3)}`;
}

/** A blank line ends a cue in both formats, so one inside a segment's text is closed up. */
const cueText = (segment: TranscriptSegment) => segment.text.trim().replace(/\n{2,}/g, '\n');

export function toSrt(segments: readonly TranscriptSegment[]): string {
  return segments
    .map(
      (segment, index) =>
        `${index + 1}\n${timestamp(segment.start, ',')} --> ${timestamp(segment.end, ',')}\n${cueText(segment)}\n`,
    )
    .join('\n');
}

export function toVtt(segments: readonly TranscriptSegment[]): string {
  return `WEBVTT\n\n${segments.map((segment) => `${timestamp(segment.start, '.')} --> ${timestamp(segment.end, '.')}\n${cueText(segment)}\n`).join('\n')}`;
}
