/**
 * What writing each usage entry durably before its answer costs, per entry (and its balance debit):
 * - one request at a time: each answer waits for its own commit;
 * - 32 answers ready in the same turn of the event loop: they share one commit (the ledger's group commit);
 * - buffered: 200 entries a transaction, as the old ledger flushed every 200 ms (lost on a crash).
 * SQLite in WAL mode with synchronous=NORMAL, in a fresh data folder, through the gateway's own ledger.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageLedger } from '../../gateway/src/core/billing/usage-ledger.js';
import { AccountRepository } from '../../gateway/src/store/account-repository.js';
import { openDatabase } from '../../gateway/src/store/database.js';
import { UsageRepository, type UsageRecord } from '../../gateway/src/store/usage-repository.js';

export interface LedgerCost {
  entries: number;
  oneAtATimeMicros: number;
  groupOf32Micros: number;
  bufferedMicros: number;
}

const entry = (i: number): UsageRecord => ({
  time: Date.now(),
  request_id: `req_${i}`,
  key_id: 'key_bench',
  method: 'POST',
  route: '/v1/chat/completions',
  model: 'bench-model',
  status: 200,
  latency_ms: 1.2,
  prompt_tokens: 12,
  completion_tokens: 6,
  cost: 0.000024,
});

async function withDatabase<T>(work: (usage: UsageRepository) => T | Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-ledger-bench-'));
  const db = await openDatabase({ dataDir: dir });
  try {
    await new AccountRepository(db).create({
      full_name: 'bench',
      currency: 'USD',
      balance: 1e9,
      spend_limit: null,
      created_at: 0,
    });
    return await work(new UsageRepository(db));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const durable = (entries: number, together: number) =>
  withDatabase(async (usage) => {
    const ledger = new UsageLedger(usage);
    const started = performance.now();
    for (let first = 0; first < entries; first += together) {
      await Promise.all(
        Array.from({ length: Math.min(together, entries - first) }, (_, i) => ledger.record(entry(first + i))),
      );
    }
    return ((performance.now() - started) * 1000) / entries;
  });

/** Microseconds per entry, each way. */
export async function measureLedgerCost(entries = 20_000): Promise<LedgerCost> {
  const oneAtATimeMicros = await durable(entries, 1);
  const groupOf32Micros = await durable(entries, 32);
  const bufferedMicros = await withDatabase(async (usage) => {
    const started = performance.now();
    for (let first = 0; first < entries; first += 200) {
      await usage.append(Array.from({ length: Math.min(200, entries - first) }, (_, i) => entry(first + i)));
    }
    return ((performance.now() - started) * 1000) / entries;
  });
  return { entries, oneAtATimeMicros, groupOf32Micros, bufferedMicros };
}
