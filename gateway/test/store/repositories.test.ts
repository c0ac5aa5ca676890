import { describe, expect, it, onTestFinished } from 'vitest';
import { AccountRepository } from '../../src/store/account-repository.js';
import { AgentsRepository, type AgentRecord } from '../../src/store/agents-repository.js';
import { BatchesRepository, type BatchRecord } from '../../src/store/batches-repository.js';
import { ConversationsRepository } from '../../src/store/conversations-repository.js';
import { openDatabase, type Database } from '../../src/store/database.js';
import { FilesRepository, type FileRecord } from '../../src/store/files-repository.js';
import { KeysRepository, type ApiKeyRecord } from '../../src/store/keys-repository.js';
import { ModelDownloadsRepository, type ModelDownloadRecord } from '../../src/store/model-downloads-repository.js';
import { ModelStateRepository } from '../../src/store/model-state-repository.js';
import { RequestLogRepository, type RequestLogEntry } from '../../src/store/request-log-repository.js';
import { ResponsesRepository } from '../../src/store/responses-repository.js';
import { SettingsRepository } from '../../src/store/settings-repository.js';
import { UsageRepository, type UsageRecord } from '../../src/store/usage-repository.js';
import { bothDatabases, type TestDatabaseKind } from '../support/test-databases.js';
import { useTempDir } from '../support/use-resources.js';

const DAY = 86_400_000;
// Past 2^31: millisecond times and large byte counts must come back exactly, as numbers.
const NOW = 1_764_000_000_123;

async function fresh(kind: TestDatabaseKind): Promise<Database> {
  const db = await kind.open();
  onTestFinished(() => db.close());
  return db;
}

const key = (id: string, changes: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id,
  name: `key ${id}`,
  role: 'member',
  prefix: 'sk-sy-abcd…',
  hash: `hash-${id}`,
  created_at: NOW,
  last_used_at: null,
  revoked_at: null,
  spend_limit: null,
  rpm_limit: null,
  guardrails: null,
  ...changes,
});

const usage = (changes: Partial<UsageRecord> = {}): UsageRecord => ({
  time: NOW,
  request_id: 'req',
  key_id: 'key_a',
  method: 'POST',
  route: '/v1/chat/completions',
  model: 'm1',
  status: 200,
  latency_ms: 12.5,
  prompt_tokens: 3,
  completion_tokens: 4,
  cost: 0.25,
  ...changes,
});

describe.each(bothDatabases())('repositories on $dialect', (kind) => {
  it('keys: insert, find by hash and id, list in creation order, count live owners, update, revoke once, touch', async () => {
    const keys = new KeysRepository(await fresh(kind));
    await keys.insert(key('key_b', { role: 'owner', created_at: NOW + 1, spend_limit: 2.5, rpm_limit: 60 }));
    await keys.insert(key('key_a', { role: 'owner' }));
    await keys.insert(key('key_c'));
    expect(await keys.findByHash('hash-key_b')).toEqual(
      key('key_b', { role: 'owner', created_at: NOW + 1, spend_limit: 2.5, rpm_limit: 60 }),
    );
    expect(await keys.findByHash('nope')).toBeUndefined();
    expect((await keys.list()).map((record) => record.id)).toEqual(['key_a', 'key_c', 'key_b']);
    expect(await keys.countOwners()).toBe(2);
    await keys.update('key_c', { name: 'renamed', spend_limit: null, rpm_limit: 5 });
    expect(await keys.findById('key_c')).toMatchObject({ name: 'renamed', rpm_limit: 5 });
    await keys.revoke('key_a', NOW + 5);
    await keys.revoke('key_a', NOW + 9);
    expect((await keys.findById('key_a'))?.revoked_at).toBe(NOW + 5);
    expect(await keys.countOwners()).toBe(1);
    await keys.touch('key_b', NOW + 7);
    expect((await keys.findById('key_b'))?.last_used_at).toBe(NOW + 7);
  });

  it('account and usage: one account row, entries and their debit in one transaction, totals by key, model and UTC day', async () => {
    const db = await fresh(kind);
    const account = new AccountRepository(db);
    const ledger = new UsageRepository(db);
    await account.create({ full_name: 'Team', currency: 'EUR', balance: 10, spend_limit: null, created_at: NOW });
    await account.create({ full_name: 'Other', currency: 'USD', balance: 99, spend_limit: null, created_at: NOW });
    expect(await account.get()).toEqual({
      full_name: 'Team',
      currency: 'EUR',
      balance: 10,
      spend_limit: null,
      created_at: NOW,
    });
    const today = Date.now();
    await ledger.append([
      usage({ time: today, request_id: 'r1', cost: 0.25 }),
      usage({ time: today, request_id: 'r2', model: 'm2', cost: 0.5, prompt_tokens: 10 }),
      usage({ time: today - 2 * DAY, request_id: 'r3', key_id: 'key_b', cost: 1.25 }),
      usage({ time: today, request_id: 'r4', key_id: null, model: null, status: 401, cost: 0 }),
    ]);
    expect((await account.get())?.balance).toBeCloseTo(8);
    expect(await ledger.totals()).toEqual({ requests: 4, prompt_tokens: 19, completion_tokens: 16, cost: 2 });
    expect(await ledger.totals('key_a')).toEqual({ requests: 2, prompt_tokens: 13, completion_tokens: 8, cost: 0.75 });
    expect(await ledger.totals('nobody')).toEqual({ requests: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0 });
    expect(await ledger.byModel()).toEqual([
      { key: 'm1', requests: 2, prompt_tokens: 6, completion_tokens: 8, cost: 1.5 },
      { key: 'm2', requests: 1, prompt_tokens: 10, completion_tokens: 4, cost: 0.5 },
    ]);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect((await ledger.byDay('key_a')).map((group) => [group.key, group.requests])).toEqual([[day(today), 2]]);
    expect((await ledger.byDay()).map((group) => group.key)).toEqual([day(today - 2 * DAY), day(today)]);
    expect(await ledger.spentByKey('key_b')).toBe(1.25);
    expect(await ledger.spentTotal()).toBe(2);
    expect(await ledger.spentPerKey()).toEqual(
      new Map([
        ['key_a', 0.75],
        ['key_b', 1.25],
      ]),
    );
    await account.update({ balance: 50, spend_limit: 20, full_name: 'Renamed' });
    expect(await account.get()).toMatchObject({ balance: 50, spend_limit: 20, full_name: 'Renamed' });
  });

  it('usage: appends of different sizes (cached statements, more than one INSERT) keep every row, add to the roll-up and refuse a stored entry_id', async () => {
    const db = await fresh(kind);
    const account = new AccountRepository(db);
    const ledger = new UsageRepository(db);
    await account.create({ full_name: 'Team', currency: 'EUR', balance: 1000, spend_limit: null, created_at: NOW });
    const today = Date.now();
    for (const [round, size] of [1, 3, 1, 701].entries()) {
      await ledger.append(
        Array.from({ length: size }, (_, i) =>
          usage({
            time: today,
            request_id: `r${round}-${i}`,
            entry_id: `use_${round}_${i}_${kind.dialect}`,
            cost: 0.5,
          }),
        ),
      );
    }
    await ledger.append([
      usage({ time: today, request_id: 'none', key_id: null, model: null, entry_id: undefined, cost: 0 }),
    ]);
    expect(await ledger.totals()).toEqual({
      requests: 707,
      prompt_tokens: 707 * 3,
      completion_tokens: 707 * 4,
      cost: 353,
    });
    expect(await ledger.totals('key_a')).toMatchObject({ requests: 706 });
    expect((await account.get())?.balance).toBeCloseTo(647);
    expect(await ledger.storedEntryIds([`use_1_2_${kind.dialect}`, 'use_missing'])).toEqual(
      new Set([`use_1_2_${kind.dialect}`]),
    );
    await expect(
      ledger.append([usage({ time: today, entry_id: `use_2_0_${kind.dialect}`, cost: 1 })]),
    ).rejects.toThrow();
    expect((await account.get())?.balance).toBeCloseTo(647);
  });

  it('usage: a failed append writes neither the entries nor the debit', async () => {
    const db = await fresh(kind);
    const account = new AccountRepository(db);
    const ledger = new UsageRepository(db);
    await account.create({ full_name: 'Team', currency: 'EUR', balance: 10, spend_limit: null, created_at: NOW });
    // The second row breaks a NOT NULL column, after the first was inserted in the same transaction.
    const broken = usage({ request_id: 'r2', method: null as unknown as string });
    await expect(
      ledger.append([usage({ request_id: 'r1' }), ...Array.from({ length: 600 }, () => usage()), broken]),
    ).rejects.toThrow();
    expect(await ledger.totals()).toMatchObject({ requests: 0 });
    expect((await account.get())?.balance).toBe(10);
  });

  it('files: newest first, paged after an id, filtered by purpose and owner', async () => {
    const files = new FilesRepository(await fresh(kind));
    const file = (id: string, created_at: number, key_id: string | null, purpose = 'batch'): FileRecord => ({
      id,
      purpose,
      filename: `${id}.jsonl`,
      mime_type: 'application/jsonl',
      bytes: 5_000_000_000,
      created_at,
      key_id,
    });
    await files.insert(file('f1', 100, 'key_a'));
    await files.insert(file('f2', 200, 'key_b'));
    await files.insert(file('f3', 200, 'key_a', 'vision'));
    await files.insert(file('f4', 300, null));
    expect(await files.get('f1')).toEqual(file('f1', 100, 'key_a'));
    expect(await files.get('f1', { keyId: 'key_b', seesAll: false })).toBeUndefined();
    expect((await files.list({ limit: 10 })).map((record) => record.id)).toEqual(['f4', 'f3', 'f2', 'f1']);
    expect((await files.list({ limit: 2, after: 'f3' })).map((record) => record.id)).toEqual(['f2', 'f1']);
    expect(
      (await files.list({ limit: 10, purpose: 'batch', scope: { keyId: 'key_a', seesAll: false } })).map(
        (record) => record.id,
      ),
    ).toEqual(['f1']);
    expect(await files.list({ limit: 10, scope: { keyId: null, seesAll: false } })).toEqual([]);
    await files.delete('f1');
    expect(await files.get('f1')).toBeUndefined();
  });

  it('batches: JSON columns round-trip, status filter in creation order, partial updates', async () => {
    const batches = new BatchesRepository(await fresh(kind));
    const batch = (id: string, created_at: number, status: BatchRecord['status']): BatchRecord => ({
      id,
      status,
      endpoint: '/v1/chat/completions',
      input_file_id: 'f1',
      output_file_id: null,
      error_file_id: null,
      completion_window: '24h',
      metadata: { team: 'a' },
      created_at,
      in_progress_at: null,
      completed_at: null,
      cancelled_at: null,
      failed_at: null,
      total: 0,
      completed: 0,
      failed: 0,
      key_id: 'key_a',
      errors: [],
    });
    await batches.insert(batch('b2', 20, 'in_progress'));
    await batches.insert(batch('b1', 10, 'validating'));
    await batches.insert(batch('b3', 30, 'completed'));
    expect((await batches.withStatus(['validating', 'in_progress'])).map((record) => record.id)).toEqual(['b1', 'b2']);
    await batches.update('b1', { status: 'failed', failed_at: 11, errors: [{ line: 2, message: 'bad json' }] });
    expect(await batches.get('b1')).toEqual({
      ...batch('b1', 10, 'failed'),
      failed_at: 11,
      errors: [{ line: 2, message: 'bad json' }],
    });
    expect((await batches.list(2, 'b3')).map((record) => record.id)).toEqual(['b2', 'b1']);
    expect(await batches.get('b1', { keyId: 'key_z', seesAll: false })).toBeUndefined();
  });

  it('batch lines: a line completed twice is stored once; none is stored once the batch left in_progress; status moves only from the given ones', async () => {
    const batches = new BatchesRepository(await fresh(kind));
    await batches.insert({
      id: 'b1',
      status: 'in_progress',
      endpoint: '/v1/chat/completions',
      input_file_id: 'f1',
      output_file_id: null,
      error_file_id: null,
      completion_window: '24h',
      metadata: {},
      created_at: 10,
      in_progress_at: 10,
      completed_at: null,
      cancelled_at: null,
      failed_at: null,
      total: 3,
      completed: 0,
      failed: 0,
      key_id: null,
      errors: [],
    });
    const line = (customId: string, at: number, ok = true) => ({
      customId,
      line: at,
      ok,
      result: JSON.stringify({ custom_id: customId, run: Math.random() }),
    });
    const first = line('c', 2);
    expect(await batches.storeLine('b1', first)).toBe('stored');
    expect(await batches.storeLine('b1', line('c', 2))).toBe('duplicate');
    expect(await batches.storeLine('b1', line('a', 0, false))).toBe('stored');
    expect(await batches.get('b1')).toMatchObject({ completed: 1, failed: 1 });
    expect(await batches.lines('b1')).toEqual([
      { customId: 'a', line: 0, ok: false, result: expect.any(String) },
      first,
    ]);
    expect(await batches.lineCount('b1')).toBe(2);
    expect([...(await batches.storedLineIds('b1'))].sort()).toEqual(['a', 'c']);

    expect(await batches.transition('b1', ['validating'], 'cancelling')).toBe(false);
    expect(await batches.transition('b1', ['in_progress'], 'cancelling')).toBe(true);
    expect(await batches.transition('b1', ['in_progress'], 'expired')).toBe(false);
    expect(await batches.storeLine('b1', line('b', 1))).toBe('not_running');
    expect(await batches.lineCount('b1')).toBe(2);
    await batches.deleteLines('b1');
    expect(await batches.lines('b1')).toEqual([]);
  });

  it('agents and conversations: versions and entries kept as JSON, delete says whether it removed one', async () => {
    const db = await fresh(kind);
    const agents = new AgentsRepository(db);
    const agent: AgentRecord = {
      id: 'ag_1',
      name: 'A',
      model: 'm',
      instructions: null,
      description: 'd',
      tools: [{ type: 'function' }],
      completion_args: { temperature: 0.5 },
      created_at: 5,
      updated_at: 5,
      version: 0,
      history: [],
      key_id: 'key_a',
      active_version: null,
    };
    await agents.insert(agent);
    const next = {
      ...agent,
      name: 'B',
      version: 1,
      updated_at: 6,
      completion_args: {},
      history: [
        {
          name: 'A',
          model: 'm',
          instructions: null,
          description: 'd',
          tools: [{ type: 'function' }],
          completion_args: { temperature: 0.5 },
          updated_at: 5,
        },
      ],
    };
    await agents.replace(next);
    expect(await agents.get('ag_1')).toEqual(next);
    expect(await agents.list(10, undefined, { keyId: 'key_a', seesAll: false })).toEqual([next]);
    await agents.setActiveVersion('ag_1', 0);
    expect((await agents.get('ag_1'))?.active_version).toBe(0);
    expect(await agents.saveAlias('ag_1', 'prod', 0, 10)).toEqual({
      alias: 'prod',
      version: 0,
      created_at: 10,
      updated_at: 10,
    });
    await agents.saveAlias('ag_1', 'beta', 1, 11);
    expect(await agents.saveAlias('ag_1', 'prod', 1, 12)).toEqual({
      alias: 'prod',
      version: 1,
      created_at: 10,
      updated_at: 12,
    });
    expect((await agents.aliases('ag_1')).map((alias) => [alias.alias, alias.version])).toEqual([
      ['beta', 1],
      ['prod', 1],
    ]);
    expect([await agents.aliasVersion('ag_1', 'prod'), await agents.aliasVersion('ag_1', 'nope')]).toEqual([
      1,
      undefined,
    ]);
    expect([await agents.deleteAlias('ag_1', 'beta'), await agents.deleteAlias('ag_1', 'beta')]).toEqual([true, false]);
    expect(await agents.delete('ag_1')).toBe(true);
    // The agent's aliases go with it.
    expect(await agents.aliases('ag_1')).toEqual([]);
    expect(await agents.delete('ag_1')).toBe(false);

    const conversations = new ConversationsRepository(db);
    const conversation = {
      id: 'c1',
      key_id: 'key_a',
      agent_id: null,
      agent_version: null,
      model: 'm',
      instructions: 'be brief',
      tools: [],
      name: null,
      description: null,
      metadata: { a: 1 },
      entries: [],
      created_at: 1,
      updated_at: 1,
    };
    await conversations.insert(conversation);
    await conversations.insert({ ...conversation, id: 'c2', metadata: null, created_at: 2 });
    await conversations.setEntries('c1', [{ id: 'e1', type: 'message.input', content: 'hi' }], 9);
    expect(await conversations.get('c1')).toEqual({
      ...conversation,
      entries: [{ id: 'e1', type: 'message.input', content: 'hi' }],
      updated_at: 9,
    });
    expect((await conversations.list(1, 1)).map((record) => record.id)).toEqual(['c1']);
    expect(await conversations.delete('c2')).toBe(true);
  });

  it("quotas' counts: a key's files (count and bytes), agents, conversations and batches by status; pages by offset", async () => {
    const db = await fresh(kind);
    const files = new FilesRepository(db);
    const file = (id: string, bytes: number, key_id: string | null): FileRecord => ({
      id,
      purpose: 'batch',
      filename: id,
      mime_type: 'application/jsonl',
      bytes,
      created_at: 1,
      key_id,
    });
    await files.insert(file('f1', 3_000_000_000, 'key_a'));
    await files.insert(file('f2', 5, 'key_a'));
    await files.insert(file('f3', 7, 'key_b'));
    await files.insert(file('f4', 9, null));
    expect(await files.storedBy('key_a')).toEqual({ count: 2, bytes: 3_000_000_005 });
    expect(await files.storedBy('key_z')).toEqual({ count: 0, bytes: 0 });

    const agents = new AgentsRepository(db);
    const agent = (id: string, created_at: number, key_id: string): AgentRecord => ({
      id,
      name: id,
      model: 'm',
      instructions: null,
      description: null,
      tools: [],
      completion_args: {},
      created_at,
      updated_at: created_at,
      version: 0,
      history: [],
      key_id,
      active_version: null,
    });
    for (const [id, at, owner] of [
      ['ag_1', 1, 'key_a'],
      ['ag_2', 2, 'key_a'],
      ['ag_3', 3, 'key_a'],
      ['ag_4', 4, 'key_b'],
    ] as const)
      await agents.insert(agent(id, at, owner));
    expect([await agents.countBy('key_a'), await agents.countBy('key_b'), await agents.countBy('key_z')]).toEqual([
      3, 1, 0,
    ]);
    expect((await agents.list(2, undefined, undefined, 1)).map((record) => record.id)).toEqual(['ag_3', 'ag_2']);
    expect((await agents.list(2, undefined, { keyId: 'key_a', seesAll: false }, 2)).map((record) => record.id)).toEqual(
      ['ag_1'],
    );

    const conversations = new ConversationsRepository(db);
    const conversation = {
      id: 'c1',
      key_id: 'key_a',
      agent_id: null,
      agent_version: null,
      model: 'm',
      instructions: null,
      tools: [],
      name: null,
      description: null,
      metadata: null,
      entries: [],
      created_at: 1,
      updated_at: 1,
    };
    await conversations.insert(conversation);
    await conversations.insert({ ...conversation, id: 'c2', created_at: 2 });
    await conversations.insert({ ...conversation, id: 'c3', key_id: 'key_b', created_at: 3 });
    expect([await conversations.countBy('key_a'), await conversations.countBy('key_b')]).toEqual([2, 1]);
    expect((await conversations.list(5, 1)).map((record) => record.id)).toEqual(['c2', 'c1']);

    const batches = new BatchesRepository(db);
    const batch = (id: string, status: BatchRecord['status'], key_id: string): BatchRecord => ({
      id,
      status,
      endpoint: '/v1/chat/completions',
      input_file_id: 'f1',
      output_file_id: null,
      error_file_id: null,
      completion_window: '24h',
      metadata: {},
      created_at: 1,
      in_progress_at: null,
      completed_at: null,
      cancelled_at: null,
      failed_at: null,
      total: 0,
      completed: 0,
      failed: 0,
      key_id,
      errors: [],
    });
    await batches.insert(batch('b1', 'in_progress', 'key_a'));
    await batches.insert(batch('b2', 'validating', 'key_a'));
    await batches.insert(batch('b3', 'completed', 'key_a'));
    await batches.insert(batch('b4', 'in_progress', 'key_b'));
    expect(await batches.countBy('key_a', ['validating', 'in_progress', 'finalizing', 'cancelling'])).toBe(2);
    expect(await batches.countBy('key_a', ['completed'])).toBe(1);
    expect([
      await batches.countIn({ keyId: 'key_a', seesAll: false }),
      await batches.countIn({ keyId: 'key_z', seesAll: false }),
      await batches.countIn(),
    ]).toEqual([3, 0, 4]);
    expect(
      (await batches.list(2, undefined, { keyId: 'key_a', seesAll: false }, 1)).map((record) => record.id),
    ).toEqual(['b2', 'b1']);
  });

  it('model state and downloads: upserts keep one row per id with the newest values', async () => {
    const db = await fresh(kind);
    const state = new ModelStateRepository(db);
    await state.save({ id: 'ft:m', metadata: { a: 'b' }, archived: true, deleted: false, updated_at: NOW });
    await state.save({ id: 'ft:m', metadata: {}, archived: false, deleted: true, updated_at: NOW + 1 });
    expect(await state.all()).toEqual([
      { id: 'ft:m', metadata: {}, archived: false, deleted: true, updated_at: NOW + 1 },
    ]);

    const downloads = new ModelDownloadsRepository(db);
    const download: ModelDownloadRecord = {
      id: 'd1',
      repo: 'r',
      file: 'f.gguf',
      revision: 'main',
      commit_sha: null,
      sha256: null,
      download_url: null,
      target: 'f.gguf',
      status: 'queued',
      bytes_total: 6_000_000_000,
      bytes_done: 0,
      error: null,
      created_at: NOW,
      updated_at: NOW,
    };
    await downloads.save(download);
    await downloads.save({
      ...download,
      status: 'done',
      bytes_done: 6_000_000_000,
      sha256: 'abc',
      updated_at: NOW + 2,
      repo: 'ignored',
    });
    expect(await downloads.all()).toEqual([
      { ...download, status: 'done', bytes_done: 6_000_000_000, sha256: 'abc', updated_at: NOW + 2 },
    ]);
  });

  it('responses: items are indexed once and found with their key; deleting the response removes its items', async () => {
    const responses = new ResponsesRepository(await fresh(kind));
    const record = {
      id: 'resp_1',
      created_at: 3,
      key_id: 'key_a',
      native: true,
      response: { id: 'resp_1', output: [{ id: 'out_1', type: 'message' }] },
      input_items: [
        { id: 'in_1', type: 'message' },
        { id: 'in_1', type: 'message' },
      ],
      context_items: [],
    };
    await responses.insert(record);
    expect(await responses.get('resp_1')).toEqual(record);
    expect(await responses.item('out_1')).toEqual({ item: { id: 'out_1', type: 'message' }, key_id: 'key_a' });
    expect(await responses.delete('resp_1')).toBe(true);
    expect(await responses.item('out_1')).toBeUndefined();
  });

  it('request log and settings: newest first, a repeated id stored once, pruning by age and count; route overrides', async () => {
    const db = await fresh(kind);
    const log = new RequestLogRepository(db);
    const entry = (id: string, time: number): RequestLogEntry => ({
      id,
      time,
      method: 'GET',
      path: '/v1/models',
      status: 200,
      latency_ms: 1,
      key_prefix: null,
      model: null,
      prompt_tokens: null,
      completion_tokens: null,
      cost: null,
      client: null,
    });
    await log.insertMany([entry('a', NOW), entry('b', NOW + 1), entry('b', NOW + 2), entry('c', NOW + 3)]);
    await log.insertMany([entry('d', NOW - DAY)]);
    expect((await log.recent(10)).map((stored) => [stored.id, stored.time])).toEqual([
      ['c', NOW + 3],
      ['b', NOW + 2],
      ['a', NOW],
      ['d', NOW - DAY],
    ]);
    await log.prune(NOW - 1, 2);
    expect((await log.recent(10)).map((stored) => stored.id)).toEqual(['c', 'b']);
    const failed: RequestLogEntry = {
      ...entry('e', NOW + 4),
      status: 502,
      error_code: 'upstream_error',
      error_message: 'The upstream answered 500.',
    };
    await log.insertMany([failed]);
    expect(await log.get('e')).toEqual(failed);
    expect((await log.recent(1))[0]).toMatchObject({
      error_code: 'upstream_error',
      error_message: 'The upstream answered 500.',
    });

    const settings = new SettingsRepository(db);
    await settings.saveRoute({ id: 'r1', provider: 'p', capabilities: ['chat'] });
    await settings.markRouteDeleted('r2');
    await settings.saveRoute({ id: 'r1', provider: 'q', capabilities: ['chat'] });
    expect(await settings.routeOverrides()).toEqual(
      expect.arrayContaining([
        { id: 'r2', deleted: true },
        { id: 'r1', deleted: false, route: { id: 'r1', provider: 'q', capabilities: ['chat'] } },
      ]),
    );
    expect(await settings.routeOverrides()).toHaveLength(2);
    await settings.clearRoute('r2');
    expect((await settings.routeOverrides()).map((override) => override.id)).toEqual(['r1']);
  });

  it('settings documents: stored per kind and id, replaced, a removal kept as null, cleared', async () => {
    const settings = new SettingsRepository(await fresh(kind));
    await settings.saveDocument('provider', 'p1', { type: 'openai', base_url: 'http://a' });
    await settings.saveDocument('provider', 'p2', null);
    await settings.saveDocument('server', '', { cors_origins: ['http://x'] });
    await settings.saveDocument('provider', 'p1', { type: 'openai', base_url: 'http://b' });
    expect(await settings.documents('provider')).toEqual(
      expect.arrayContaining([
        { id: 'p1', value: { type: 'openai', base_url: 'http://b' } },
        { id: 'p2', value: null },
      ]),
    );
    expect(await settings.documents('provider')).toHaveLength(2);
    expect(await settings.documents('server')).toEqual([{ id: '', value: { cors_origins: ['http://x'] } }]);
    await settings.clearDocument('provider', 'p2');
    expect((await settings.documents('provider')).map((document) => document.id)).toEqual(['p1']);
    expect(await settings.routeOverrides()).toEqual([]);
  });

  it('a second connection to the same database sees what the first wrote', async () => {
    const db = await fresh(kind);
    await new KeysRepository(db).insert(key('key_x'));
    const other = await openDatabase(kind.location());
    onTestFinished(() => other.close());
    expect((await new KeysRepository(other).findById('key_x'))?.created_at).toBe(NOW);
  });
});

describe('SQLite shared by several gateways in one process', () => {
  it('two connections to one file appending at once all commit (transactions never interleave)', async () => {
    const dataDir = useTempDir('switchyard-store-');
    const first = await openDatabase({ dataDir });
    const second = await openDatabase({ dataDir });
    onTestFinished(async () => {
      await first.close();
      await second.close();
    });
    await new AccountRepository(first).create({
      full_name: 'Team',
      currency: 'EUR',
      balance: 10,
      spend_limit: null,
      created_at: NOW,
    });
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        new UsageRepository(i % 2 ? first : second).append([usage({ cost: 0.01 }), usage({ cost: 0.01 })]),
      ),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(await new UsageRepository(first).totals()).toMatchObject({ requests: 200 });
    expect((await new AccountRepository(second).get())?.balance).toBeCloseTo(8);
  });
});
