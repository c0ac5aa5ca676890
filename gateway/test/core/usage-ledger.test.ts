import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageLedger } from '../../src/core/usage-ledger.js';
import { AccountRepository } from '../../src/store/account-repository.js';
import { openDatabase, type Database } from '../../src/store/database.js';
import { UsageRepository } from '../../src/store/usage-repository.js';

let dir: string;
let db: Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-ledger-'));
  db = openDatabase(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entry = { time: Date.now(), request_id: 'req_1', key_id: null, method: 'POST', route: '/v1/chat/completions', model: 'm', status: 200, latency_ms: 3, prompt_tokens: 1, completion_tokens: 2, cost: 0.5 };

describe('UsageLedger', () => {
  it('survives a background write that fails (the process must not die), keeping the records pending', async () => {
    const failures: unknown[] = [];
    const ledger = new UsageLedger(new UsageRepository(db), new AccountRepository(db), 5, (error) => failures.push(error));
    db.close();
    ledger.record(entry);
    await sleep(50);
    expect(failures).toHaveLength(1);
    expect(ledger.totalDebited).toBe(0.5);
    expect(() => ledger.flush()).toThrow();
  });
});
