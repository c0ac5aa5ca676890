import { randomUUID } from 'node:crypto';
import { clockPart } from './id-generator.js';

/**
 * Random hex digits from a version-4 UUID (122 random bits), the cheapest fresh randomness Node has:
 * `randomUUID` draws from an entropy cache of Node's own, where `randomBytes` asks OpenSSL on every
 * call (per id, 20 to 30 times slower; see docs/performance.md).
 */
function uuidHex(): string {
  const uuid = randomUUID();
  return uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(14, 18) + uuid.slice(19, 23) + uuid.slice(24);
}

/**
 * Prefixed random ids (`batch_req_…`, `msg_…`): 32 hex digits, 122 random bits. What every request
 * makes (request ids, answer ids, ledger entries, traces) comes from the gateway's IdGenerator instead.
 */
export function newId(prefix: string): string {
  return prefix + uuidHex();
}

/** 13 random hex digits (52 bits, the version digit skipped): with the 3 microsecond digits, as long as the 16 random characters before. */
function orderedRandomPart(): string {
  const uuid = randomUUID();
  return uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(15, 16);
}

/**
 * Prefixed ids that sort in the order they were made, to the microsecond: listed resources (`file-…`,
 * `batch_…`, `ag_…`, `conv_…`; lists are ordered by `created_at`, whole seconds as the APIs define it,
 * then by id, so two resources made in the same second still list newest first), request ids and
 * the usage ledger's `entry_id`s (thousands a second: a unique index over random ids writes a random
 * page of its B-tree for every row; over these, every row of a commit lands on its rightmost page).
 */
export function newOrderedId(prefix: string): string {
  return prefix + clockPart() + orderedRandomPart();
}
