import type { TranscriptSegment } from './api/transcribe';

/** 3725.5 → "01:02:05,500" (SRT) or "01:02:05.500" (WebVTT). */
function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

const cueText = (segment: TranscriptSegment) => segment.text.trim().replace(/\n{2,}/g, '\n');

/** SubRip: numbered cues from 1, comma before the milliseconds, a blank line between cues. */
export function toSrt(segments: readonly TranscriptSegment[]): string {
  return segments
    .map((s, i) => `${i + 1}\n${timestamp(s.start, ',')} --> ${timestamp(s.end, ',')}\n${cueText(s)}\n`)
    .join('\n');
}

/** WebVTT: the WEBVTT header, a dot before the milliseconds. */
export function toVtt(segments: readonly TranscriptSegment[]): string {
  return [
    'WEBVTT\n',
    ...segments.map((s) => `${timestamp(s.start, '.')} --> ${timestamp(s.end, '.')}\n${cueText(s)}\n`),
  ].join('\n');
}
