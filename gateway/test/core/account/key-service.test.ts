import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { KeyService, MAX_CACHED_MISSES } from '../../../src/core/account/key-service.js';
import { openDatabase, type Database } from '../../../src/store/database.js';
import { KeysRepository } from '../../../src/store/keys-repository.js';
import { useTempDir } from '../../support/use-resources.js';

let dir: string;
let db: Database;
beforeEach(async () => {
  dir = useTempDir('switchyard-keys-');
  db = await openDatabase({ dataDir: dir });
  onTestFinished(() => db.close());
});

describe('KeyService', () => {
  it('keeps a bounded cache however many wrong keys are tried, and still knows the real ones without a query', async () => {
    const repository = new KeysRepository(db);
    const keys = new KeyService(repository);
    const created = await Promise.all(['ci', 'console', 'owner'].map((name) => keys.create({ name, role: 'member' })));
    for (const { key, record } of created) expect((await keys.authenticate(key))?.name).toBe(record.name);

    let queries = 0;
    const findByHash = repository.findByHash.bind(repository);
    repository.findByHash = (hash) => {
      queries++;
      return findByHash(hash);
    };
    for (let i = 0; i < MAX_CACHED_MISSES + 500; i++)
      expect(await keys.authenticate(`sk-sy-wrong-${i}`)).toBeUndefined();
    expect(queries).toBe(MAX_CACHED_MISSES + 500);
    expect(keys.cachedLookups).toEqual({ known: 3, unknown: MAX_CACHED_MISSES });

    // Every real key still answers from memory, in the same turn (no promise, no query).
    queries = 0;
    for (const { key, record } of created)
      expect((keys.authenticate(key) as { name?: string } | undefined)?.name).toBe(record.name);
    expect(queries).toBe(0);
    // A wrong key tried again costs no query either, and one sent many times at once costs one.
    expect(keys.authenticate(`sk-sy-wrong-${MAX_CACHED_MISSES + 499}`)).toBeUndefined();
    await Promise.all(Array.from({ length: 50 }, () => keys.authenticate('sk-sy-wrong-burst')));
    expect(queries).toBe(1);
  });

  it('does not let a request after a revocation join a lookup that started before it', async () => {
    const repository = new KeysRepository(db);
    const keys = new KeyService(repository);
    const { key, record } = await keys.create({ name: 'short lived', role: 'member' });
    // The key is not cached yet (creating it cleared the cache): hold its first lookup until after the revocation.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const findByHash = repository.findByHash.bind(repository);
    repository.findByHash = async (hash) => {
      const found = await findByHash(hash);
      await held;
      return found;
    };
    const before = keys.authenticate(key);
    repository.findByHash = findByHash;
    await keys.revoke(record.id, 'someone-else');
    const after = keys.authenticate(key);
    release();
    expect((await before)?.id).toBe(record.id);
    expect(await after).toBeUndefined();
  });
});
