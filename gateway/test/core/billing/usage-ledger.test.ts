import { sql } from 'kysely';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { usageJournalAt } from '../../../src/core/billing/usage-journal.js';
import { UsageLedger } from '../../../src/core/billing/usage-ledger.js';
import { AccountRepository } from '../../../src/store/account-repository.js';
import { openDatabase, type Database } from '../../../src/store/database.js';
import { UsageRepository } from '../../../src/store/usage-repository.js';
import { useTempDir } from '../../support/use-resources.js';

let dir: string;
let db: Database;
beforeEach(async () => {
  dir = useTempDir('switchyard-ledger-');
  db = await openDatabase({ dataDir: dir });
  onTestFinished(() => db.close());
  await new AccountRepository(db).create({
    full_name: 'x',
    currency: 'USD',
    balance: 10,
    spend_limit: null,
    created_at: 0,
  });
});

const journalFiles = () =>
  readdirSync(dir)
    .filter((name) => name.startsWith('usage-journal'))
    .sort();

/** What a second connection to the database file reads: the ledger's totals and the account's balance. */
async function seenByAnotherConnection(): Promise<{ requests: number; cost: number; balance: number | undefined }> {
  const other = await openDatabase({ dataDir: dir });
  try {
    const totals = await new UsageRepository(other).totals();
    return {
      requests: totals.requests,
      cost: totals.cost,
      balance: (await new AccountRepository(other).get())?.balance,
    };
  } finally {
    await other.close();
  }
}

const entry = (id: string) => ({
  time: Date.now(),
  request_id: id,
  key_id: 'key_1',
  method: 'POST',
  route: '/v1/chat/completions',
  model: 'm',
  status: 200,
  latency_ms: 3,
  prompt_tokens: 1,
  completion_tokens: 2,
  cost: 0.5,
});

/** A repository whose next append commits and then reports a failure (the commit's answer lost on the way). */
class LostCommitAnswer extends UsageRepository {
  lose = true;
  override async append(entries: Parameters<UsageRepository['append']>[0]): Promise<void> {
    await super.append(entries);
    if (this.lose) {
      this.lose = false;
      throw new Error('connection terminated unexpectedly');
    }
  }
}

describe('UsageLedger', () => {
  it('writes an entry once when a commit happened but its answer was lost: the retry skips what is stored; the journal holds it from before the answer', async () => {
    const repository = new LostCommitAnswer(db);
    const errors: unknown[] = [];
    const journal = usageJournalAt(dir, 'gw/1');
    const ledger = new UsageLedger(repository, (error) => errors.push(error), 20, journal);
    await ledger.record(entry('req_lost'));
    expect(journal.path).toBe(join(dir, 'usage-journal-gw_1.ndjson'));
    expect(JSON.parse(readFileSync(journal.path, 'utf8')).request_id).toBe('req_lost');
    await expect.poll(() => errors.length, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => ledger.pendingCount, { timeout: 10_000 }).toBe(0);
    expect(await repository.totals()).toMatchObject({ requests: 1, cost: 0.5 });
    expect((await new AccountRepository(db).get())?.balance).toBe(9.5);
    await ledger.close();
    expect(existsSync(journal.path)).toBe(false);
  });

  it('lets the answer go once the entry is in the journal, without waiting for the database; a gateway killed before the commit bills it at its next start', async () => {
    const stalled = new (class extends UsageRepository {
      override append(): Promise<void> {
        return new Promise(() => undefined);
      }
    })(db);
    const journal = usageJournalAt(dir);
    expect(journal.path).toBe(join(dir, `usage-journal.${process.pid}.ndjson`));
    await new UsageLedger(stalled, () => undefined, 1000, journal).record(entry('req_1'));
    expect(JSON.parse(readFileSync(journal.path, 'utf8')).request_id).toBe('req_1');

    const next = new UsageLedger(new UsageRepository(db), undefined, 1000, usageJournalAt(dir));
    await next.load();
    expect(await new UsageRepository(db).totals()).toMatchObject({ requests: 1, cost: 0.5 });
    expect((await new AccountRepository(db).get())?.balance).toBe(9.5);
    expect(next.spentBy('key_1')).toBe(0.5);
    expect(journalFiles()).toEqual([`usage-journal.${process.pid}.ndjson`]);
    expect(readFileSync(journal.path, 'utf8')).toBe('');
    await next.close();
    expect(journalFiles()).toEqual([]);
  });

  it('journal first, one commit on the writer thread gathers the entries of several turns; another connection sees them', async () => {
    const appends: { entries: number; inBackground: boolean }[] = [];
    const counting = new (class extends UsageRepository {
      override append(entries: Parameters<UsageRepository['append']>[0], inBackground = false): Promise<void> {
        appends.push({ entries: entries.length, inBackground });
        return super.append(entries, inBackground);
      }
    })(db);
    const ledger = new UsageLedger(counting, undefined, 1000, usageJournalAt(dir));
    for (let turn = 0; turn < 20; turn++) await ledger.record(entry(`req_${turn}`));
    await expect.poll(() => appends.reduce((sum, append) => sum + append.entries, 0), { timeout: 10_000 }).toBe(20);
    expect(appends.length).toBeLessThan(10);
    expect(appends.every((append) => append.inBackground)).toBe(true);
    await ledger.flush();
    expect(await seenByAnotherConnection()).toMatchObject({ requests: 20, cost: 10, balance: 0 });
    await ledger.close();
  });

  it('replays the journals of gateways of the folder that are gone (and of versions before) at the start, not those of one still running', async () => {
    const write = (name: string, ...ids: string[]) =>
      writeFileSync(
        join(dir, name),
        ids.map((id) => `${JSON.stringify({ ...entry(id), entry_id: `use_${id}` })}\n`).join(''),
      );
    write('usage-journal.ndjson', 'req_old');
    write('usage-journal.999999999.ndjson', 'req_dead_1', 'req_dead_2');
    write(`usage-journal.${process.ppid}.ndjson`, 'req_running');
    write('usage-journal-named.ndjson', 'req_named');
    await new UsageRepository(db).append([{ ...entry('req_dead_1'), entry_id: 'use_req_dead_1' }]);
    const ledger = new UsageLedger(new UsageRepository(db), undefined, 1000, usageJournalAt(dir));
    await ledger.load();
    expect(await new UsageRepository(db).totals()).toMatchObject({ requests: 3, cost: 1.5 });
    expect(journalFiles()).toEqual(
      [
        `usage-journal-named.ndjson`,
        `usage-journal.${process.pid}.ndjson`,
        `usage-journal.${process.ppid}.ndjson`,
      ].sort(),
    );
    await ledger.close();
  });

  it('starts the journal over once it is large and the database holds every entry in it', async () => {
    const journal = usageJournalAt(dir);
    const ledger = new UsageLedger(new UsageRepository(db), undefined, 1000, journal);
    for (let turn = 0; turn < 40; turn++)
      await Promise.all(Array.from({ length: 100 }, (_, i) => ledger.record(entry(`req_${turn}_${i}`))));
    await ledger.flush();
    expect(statSync(journal.path).size).toBeLessThan(1 << 20);
    expect(await new UsageRepository(db).totals()).toMatchObject({ requests: 4000 });
    await ledger.close();
  });

  it('while the database refuses writes, fsyncs the journal before the answers leave and writes the entries once it is back', async () => {
    const usage = new UsageRepository(db);
    const journal = usageJournalAt(dir);
    const syncs = vi.spyOn(journal, 'sync');
    const ledger = new UsageLedger(usage, () => undefined, 20, journal);
    const refuse = (statement: string) => sql.raw(statement).execute(db.query);
    await refuse("CREATE TRIGGER refuse BEFORE INSERT ON usage BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    await ledger.record(entry('req_1'));
    await expect.poll(() => syncs.mock.calls.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const before = syncs.mock.calls.length;
    await ledger.record(entry('req_2'));
    expect(syncs.mock.calls.length).toBeGreaterThan(before);
    expect(
      readFileSync(journal.path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).request_id),
    ).toEqual(['req_1', 'req_2']);
    await refuse('DROP TRIGGER refuse');
    await expect.poll(() => ledger.pendingCount, { timeout: 10_000 }).toBe(0);
    expect(await usage.totals()).toMatchObject({ requests: 2, cost: 1 });
    await ledger.close();
    expect(journalFiles()).toEqual([]);
  });

  it('with answers after the commit (PostgreSQL), journals only what the database refuses, and empties the journal once it has it', async () => {
    const usage = new UsageRepository(db);
    const journal = usageJournalAt(dir);
    const ledger = new UsageLedger(usage, () => undefined, 20, journal, undefined, 'commit');
    await ledger.record(entry('req_1'));
    expect(await usage.totals()).toMatchObject({ requests: 1 });
    expect(existsSync(journal.path)).toBe(false);
    const refuse = (statement: string) => sql.raw(statement).execute(db.query);
    await refuse("CREATE TRIGGER refuse BEFORE INSERT ON usage BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    await ledger.record(entry('req_2'));
    expect(
      readFileSync(journal.path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).request_id),
    ).toEqual(['req_2']);
    await refuse('DROP TRIGGER refuse');
    await expect.poll(() => ledger.pendingCount, { timeout: 10_000 }).toBe(0);
    expect(readFileSync(journal.path, 'utf8')).toBe('');
    expect(await usage.totals()).toMatchObject({ requests: 2, cost: 1 });
    await ledger.close();
    expect(journalFiles()).toEqual([]);
  });

  it('gives entries ids in the order of the milliseconds they were recorded in, so the unique entry_id index grows at its right edge', async () => {
    const ledger = new UsageLedger(new UsageRepository(db));
    const recorded = [];
    for (let i = 0; i < 3; i++) {
      const recordedEntry: Parameters<UsageLedger['record']>[0] = entry(`req_${i}`);
      await ledger.record(recordedEntry);
      recorded.push(recordedEntry.entry_id!);
      const millis = Date.now();
      while (Date.now() === millis) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(recorded.every((id) => /^use_[0-9a-f]{12}[\w-]{16}$/.test(id))).toBe(true);
    expect([...recorded].sort()).toEqual(recorded);
    await ledger.close();
  });

  it("has the entry and its debit on disk once record() resolves (another connection sees them), one commit for a turn's entries", async () => {
    const ledger = new UsageLedger(new UsageRepository(db));
    const commits = [ledger.record(entry('req_1')), ledger.record(entry('req_0'))];
    expect(commits[0]).toBe(commits[1]);
    expect(ledger.spentBy('key_1')).toBe(1);
    await Promise.all(commits);
    expect(await seenByAnotherConnection()).toMatchObject({ requests: 2, cost: 1, balance: 9 });
  });

  it('reads what each key spent before the start', async () => {
    await new UsageRepository(db).append([entry('req_1'), { ...entry('req_2'), key_id: 'key_2', cost: 2 }]);
    const ledger = new UsageLedger(new UsageRepository(db));
    await ledger.load();
    expect([ledger.spentBy('key_1'), ledger.spentBy('key_2'), ledger.spentBy('key_3')]).toEqual([0.5, 2, 0]);
  });

  it('keeps an entry whose write failed, reports it without rejecting, and writes it with the next one', async () => {
    const failures: unknown[] = [];
    const usage = new UsageRepository(db);
    const ledger = new UsageLedger(usage, (error) => failures.push(error));
    const refuse = (statement: string) => sql.raw(statement).execute(db.query);
    await refuse("CREATE TRIGGER refuse BEFORE INSERT ON usage BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    await expect(ledger.record(entry('req_1'))).resolves.toBeUndefined();
    expect(failures).toHaveLength(1);
    expect(ledger.spentBy('key_1')).toBe(0.5);
    expect((await usage.totals()).requests).toBe(0);
    expect((await new AccountRepository(db).get())?.balance).toBe(10);
    await refuse('DROP TRIGGER refuse');
    await ledger.record(entry('req_2'));
    expect(await usage.totals()).toMatchObject({ requests: 2, cost: 1 });
    expect((await new AccountRepository(db).get())?.balance).toBe(9);
    expect(ledger.spentBy('key_1')).toBe(1);
  });

  it('writes entries a failed write left pending on its own once the database takes them again, with no new request', async () => {
    const failures: unknown[] = [];
    const usage = new UsageRepository(db);
    const ledger = new UsageLedger(usage, (error) => failures.push(error), 20);
    onTestFinished(() => ledger.close());
    const refuse = (statement: string) => sql.raw(statement).execute(db.query);
    await refuse("CREATE TRIGGER refuse BEFORE INSERT ON usage BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    await ledger.record(entry('req_1'));
    await expect.poll(() => failures.length, { timeout: 10_000 }).toBeGreaterThan(1);
    expect(ledger.pendingCount).toBe(1);
    await refuse('DROP TRIGGER refuse');
    await expect.poll(() => ledger.pendingCount, { timeout: 10_000 }).toBe(0);
    expect(await usage.totals()).toMatchObject({ requests: 1, cost: 0.5 });
    expect((await new AccountRepository(db).get())?.balance).toBe(9.5);
  });
});
