import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { KeyService, MAX_CACHED_LOOKUPS } from '../../src/core/account/key-service.js';
import { openDatabase, type Database } from '../../src/store/database.js';
import { KeysRepository } from '../../src/store/keys-repository.js';
import { useTempDir } from '../support/use-resources.js';

let dir: string;
let db: Database;
beforeEach(async () => {
  dir = useTempDir('switchyard-keys-');
  db = await openDatabase({ dataDir: dir });
  onTestFinished(() => db.close());
});

describe('KeyService', () => {
  it('keeps a bounded cache however many wrong keys are tried, and still knows the real ones', async () => {
    const keys = new KeyService(new KeysRepository(db));
    const { key } = await keys.create({ name: 'ci', role: 'member' });
    expect((await keys.authenticate(key))?.name).toBe('ci');
    for (let i = 0; i < MAX_CACHED_LOOKUPS + 500; i++) expect(await keys.authenticate(`sk-sy-wrong-${i}`)).toBeUndefined();
    expect(keys.cachedLookups).toBeLessThanOrEqual(MAX_CACHED_LOOKUPS);
    expect((await keys.authenticate(key))?.name).toBe('ci');
  });
});
