import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 18 * 256;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/** Prefixed random ids (`chatcmpl-…`, `file-…`, `batch_…`): 144 random bits, URL-safe, drawn from a refilled pool (one syscall per 256 ids). */
export function newId(prefix: string): string {
  if (offset + 18 > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = prefix + pool.toString('base64url', offset, offset + 18);
  offset += 18;
  return id;
}
