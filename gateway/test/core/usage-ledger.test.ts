import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { UsageLedger } from '../../src/core/billing/usage-ledger.js';
import { AccountRepository } from '../../src/store/account-repository.js';
import { openDatabase, type Database } from '../../src/store/database.js';
import { UsageRepository } from '../../src/store/usage-repository.js';
import { useTempDir } from '../support/use-resources.js';

let dir: string;
let db: Database;
beforeEach(() => {
  dir = useTempDir('switchyard-ledger-');
  db = openDatabase(dir);
  onTestFinished(() => {
    if (db.open) db.close();
  });
  new AccountRepository(db).create({ full_name: 'x', currency: 'USD', balance: 10, spend_limit: null, created_at: 0 });
});

const entry = (id: string) => ({ time: Date.now(), request_id: id, key_id: 'key_1', method: 'POST', route: '/v1/chat/completions', model: 'm', status: 200, latency_ms: 3, prompt_tokens: 1, completion_tokens: 2, cost: 0.5 });

describe('UsageLedger', () => {
  it('has the entry and its debit on disk once record() resolves (another connection sees them), one commit for a turn\'s entries', async () => {
    const ledger = new UsageLedger(new UsageRepository(db), new AccountRepository(db));
    const commits = [ledger.record(entry('req_1')), ledger.record(entry('req_0'))];
    expect(commits[0]).toBe(commits[1]);
    expect(ledger.spentBy('key_1')).toBe(1);
    await Promise.all(commits);
    const other = openDatabase(dir);
    try {
      expect(new UsageRepository(other).totals()).toMatchObject({ requests: 2, cost: 1 });
      expect(new AccountRepository(other).get()?.balance).toBe(9);
    } finally {
      other.close();
    }
  });

  it('keeps an entry whose write failed, reports it without rejecting, and writes it with the next one', async () => {
    const failures: unknown[] = [];
    const usage = new UsageRepository(db);
    const ledger = new UsageLedger(usage, new AccountRepository(db), (error) => failures.push(error));
    db.exec('CREATE TRIGGER refuse BEFORE INSERT ON usage BEGIN SELECT RAISE(ABORT, \'disk full\'); END');
    await expect(ledger.record(entry('req_1'))).resolves.toBeUndefined();
    expect(failures).toHaveLength(1);
    expect(ledger.spentBy('key_1')).toBe(0.5);
    expect(usage.totals().requests).toBe(0);
    expect(new AccountRepository(db).get()?.balance).toBe(10);
    db.exec('DROP TRIGGER refuse');
    await ledger.record(entry('req_2'));
    expect(usage.totals()).toMatchObject({ requests: 2, cost: 1 });
    expect(new AccountRepository(db).get()?.balance).toBe(9);
    expect(ledger.spentBy('key_1')).toBe(1);
  });
});
