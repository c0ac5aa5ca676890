import type { CacheCandidate } from '../../store/response-cache-store.js';
import { cosineSimilarity } from '../embeddings/cosine-similarity.js';

/** An embedding as the store keeps it: its float32s in base64 (a 384-dimension vector in 2 KB). */
export function encodeVector(vector: readonly number[]): string {
  return Buffer.from(Float32Array.from(vector).buffer).toString('base64');
}

export function decodeVector(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  // A copy: the decoded bytes may start at an offset a Float32Array cannot view.
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.byteLength & ~3)));
}

/** The candidate most similar to `vector`, when it reaches `threshold`. */
export function nearest(
  vector: readonly number[],
  candidates: readonly CacheCandidate[],
  threshold: number,
): { key: string; similarity: number } | undefined {
  let best: { key: string; similarity: number } | undefined;
  for (const candidate of candidates) {
    const similarity = cosineSimilarity(vector, decodeVector(candidate.embedding));
    if (similarity >= threshold && (!best || similarity > best.similarity)) best = { key: candidate.key, similarity };
  }
  return best;
}
