/**
 * Micro-benchmark of the ledger's statement building per group commit (issue 16): the statements
 * `UsageRepository.append` hands to `atomically`, for a one-row commit, Kysely-compiled (before)
 * against the cached SQL text (after). Run: npx tsx bench/gateway/ledger-append-micro.ts <old module>
 */
import { Kysely, SqliteDialect, type CompiledQuery, type SqliteDatabase } from 'kysely';
import { UsageRepository } from '../../gateway/src/store/usage-repository.js';
import type { Database } from '../../gateway/src/store/database.js';
import type { Tables } from '../../gateway/src/store/tables.js';

const query = new Kysely<Tables>({ dialect: new SqliteDialect({ database: {} as SqliteDatabase }) });
let sink: readonly CompiledQuery[] = [];
const db = {
  query,
  dialect: 'sqlite',
  atomically: async (statements: readonly CompiledQuery[]) => void (sink = statements),
} as unknown as Database;
const entry = (i: number) => ({
  time: Date.now(),
  request_id: `req_${i}`,
  key_id: 'key_1',
  method: 'POST',
  route: '/v1/chat/completions',
  model: 'm',
  status: 200,
  latency_ms: 3,
  prompt_tokens: 10,
  completion_tokens: 20,
  cost: 0.001,
  entry_id: `use_${i}`,
});

async function perAppend(
  repo: { append(entries: ReturnType<typeof entry>[]): Promise<void> },
  n: number,
): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await repo.append([entry(i)]);
  return Number(process.hrtime.bigint() - started) / 1000 / n;
}

const oldPath = process.argv[2];
const Old = oldPath
  ? ((await import(oldPath)) as { UsageRepository: typeof UsageRepository }).UsageRepository
  : undefined;
const after = new UsageRepository(db);
const before = Old ? new Old(db) : undefined;
for (let round = 0; round < 5; round++) {
  const a = await perAppend(after, 5000);
  const b = before ? await perAppend(before, 5000) : NaN;
  console.log(
    `round ${round}: before ${b.toFixed(2)} µs, after ${a.toFixed(2)} µs per one-row append (statements: ${sink.length})`,
  );
}
