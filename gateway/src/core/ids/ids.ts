import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 18 * 256;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

function randomPart(bytes: number, encoding: 'base64url' | 'hex' = 'base64url'): string {
  if (offset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const part = pool.toString(encoding, offset, offset + bytes);
  offset += bytes;
  return part;
}

/** Prefixed random ids (`chatcmpl-…`, `batch_req_…`): 144 random bits, URL-safe, drawn from a refilled pool (one syscall per 256 ids). */
export function newId(prefix: string): string {
  return prefix + randomPart(18);
}

/** `bytes` random bytes as lower-case hex: OpenTelemetry's trace ids (16) and span ids (8). */
export function randomHex(bytes: number): string {
  return randomPart(bytes, 'hex');
}

let clockMillis = -1;
let clockText = '';
/** 12 hex digits of a millisecond clock value; the last one is kept (thousands of ids a second share it). */
function clockPart(millis: number): string {
  if (millis !== clockMillis) {
    clockMillis = millis;
    clockText = millis.toString(16).padStart(12, '0');
  }
  return clockText;
}

let lastMillis = 0;

/**
 * Prefixed ids of listed resources (`file-…`, `batch_…`, `ag_…`, `conv_…`) that sort in creation order:
 * 12 hex digits of a strictly increasing millisecond clock, then 96 random bits. Lists are ordered by
 * `created_at` (whole seconds, as the APIs define it) and then by id, so two resources made in the same
 * second still list newest first.
 */
export function newOrderedId(prefix: string): string {
  lastMillis = Math.max(Date.now(), lastMillis + 1);
  return prefix + clockPart(lastMillis) + randomPart(12);
}

/**
 * Prefixed ids that sort by the millisecond they were made in, then 96 random bits (the usage ledger's
 * `entry_id`s, thousands a second: no strictly increasing clock to run ahead of the time). A unique
 * index over random ids writes a random page of its B-tree for every row; over these, every row of a
 * commit lands on its rightmost page.
 */
export function newTimeOrderedId(prefix: string): string {
  return prefix + clockPart(Date.now()) + randomPart(12);
}
