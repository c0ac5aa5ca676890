import { randomBytes } from 'node:crypto';

/** Prefixed random ids (`chatcmpl-…`, `file-…`, `batch_…`); 24 random characters, URL-safe. */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(18).toString('base64url')}`;
}
