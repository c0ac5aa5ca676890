import type { TranscriptSegment } from '../contracts/transcription.js';
import type { OfflineRecognizerResult } from './sherpa-onnx-binding.js';

/** A pause longer than this (seconds) between two tokens starts a new segment. */
const PAUSE_SECONDS = 0.8;
const SENTENCE_END = /[.!?。！？]$/;
const SPECIAL_TOKEN = /^<\|.*\|>$/;
const WORD_BOUNDARY = '\u2581'; // '▁', SentencePiece's word-start marker

/** Joins recognizer tokens into text: SentencePiece `▁` word starts, paraformer `@@` continuations, spaces between Latin words. */
export function joinTokens(tokens: string[]): string {
  const pieceStyle = tokens.some((token) => token.includes(WORD_BOUNDARY));
  let text = '';
  let glueNext = true;
  for (const token of tokens) {
    if (pieceStyle) {
      text += token.replaceAll(WORD_BOUNDARY, ' ');
      continue;
    }
    const continues = token.endsWith('@@');
    const piece = continues ? token.slice(0, -2) : token;
    const latin = /^[\p{Script=Latin}\d']/u.test(piece);
    text += !glueNext && latin && /[\p{Script=Latin}\d.,!?']$/u.test(text) ? ` ${piece}` : piece;
    glueNext = continues;
  }
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Segments of a recognition result. Models that report per-token timestamps (transducer,
 * paraformer, SenseVoice) are split at pauses and sentence ends; otherwise (Whisper) one segment
 * spans the whole audio.
 */
export function buildSegments(result: OfflineRecognizerResult, duration: number): TranscriptSegment[] {
  const text = result.text.trim();
  if (text === '') return [];
  const { tokens = [], timestamps = [], durations = [] } = result;
  if (tokens.length === 0 || timestamps.length !== tokens.length) return [{ id: 0, start: 0, end: duration, text }];

  const words = tokens
    .map((token, i) => ({
      token,
      start: timestamps[i],
      end: durations[i] === undefined ? undefined : timestamps[i] + durations[i],
    }))
    .filter((word) => !SPECIAL_TOKEN.test(word.token));
  const groups: (typeof words)[] = [];
  let current: typeof words = [];
  for (const word of words) {
    const previous = current.at(-1);
    if (
      previous &&
      (word.start - (previous.end ?? previous.start) > PAUSE_SECONDS || SENTENCE_END.test(previous.token))
    ) {
      groups.push(current);
      current = [];
    }
    current.push(word);
  }
  if (current.length > 0) groups.push(current);

  const segments: TranscriptSegment[] = [];
  groups.forEach((group, i) => {
    const groupText = joinTokens(group.map((word) => word.token));
    if (groupText === '') return;
    const next = groups[i + 1]?.[0]?.start;
    const last = group[group.length - 1];
    const end = Math.min(duration, last.end ?? next ?? duration);
    segments.push({
      id: segments.length,
      start: round(group[0].start),
      end: round(Math.max(end, group[0].start)),
      text: groupText,
    });
  });
  return segments.length > 0 ? segments : [{ id: 0, start: 0, end: duration, text }];
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
