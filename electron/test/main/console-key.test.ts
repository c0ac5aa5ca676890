import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../../../gateway/test/support/use-resources.js';
import {
  CONSOLE_KEY_FILE,
  ENCRYPTED_CONSOLE_KEY_FILE,
  readOrCreateConsoleKey,
  type ConsoleKeyStorage,
} from '../../main/console-key.js';
import { FakeSafeStorage, unavailableSafeStorage } from '../support/fake-safe-storage.js';

const ownerOnly = process.platform !== 'win32';

function storageWith(
  safeStorage: FakeSafeStorage,
  platform: NodeJS.Platform = 'linux',
): ConsoleKeyStorage & { logged: string[] } {
  const logged: string[] = [];
  return { safeStorage, platform, logged, log: (message) => void logged.push(message) };
}

describe('console key file, where the operating system offers no encryption', () => {
  let dir: string;
  let storage: ReturnType<typeof storageWith>;
  beforeEach(() => {
    dir = useTempDir('switchyard-key-');
    storage = storageWith(unavailableSafeStorage());
  });

  it('creates an sk-sy- key on first launch, readable by the user only, and says why it is not encrypted', async () => {
    const key = await readOrCreateConsoleKey(path.join(dir, 'userData'), storage);
    expect(key).toMatch(/^sk-sy-[A-Za-z0-9_-]{32}$/);
    const file = path.join(dir, 'userData', CONSOLE_KEY_FILE);
    expect((await readFile(file, 'utf8')).trim()).toBe(key);
    if (ownerOnly) expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(storage.logged).toEqual([expect.stringContaining('unencrypted')]);
    expect(storage.logged[0]).toContain('no keychain or secret service');
  });

  it('reuses the same key on every later launch', async () => {
    const first = await readOrCreateConsoleKey(dir, storage);
    expect(await readOrCreateConsoleKey(dir, storage)).toBe(first);
    expect(await readOrCreateConsoleKey(dir, storage)).toBe(first);
  });

  it('generates different keys for different installs', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'switchyard-key-'));
    try {
      expect(await readOrCreateConsoleKey(dir, storage)).not.toBe(await readOrCreateConsoleKey(other, storage));
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('replaces a file that does not hold a key and tightens loose permissions', async () => {
    const file = path.join(dir, CONSOLE_KEY_FILE);
    await writeFile(file, 'not a key\n', { mode: 0o644 });
    const key = await readOrCreateConsoleKey(dir, storage);
    expect(key).toMatch(/^sk-sy-/);
    expect((await readFile(file, 'utf8')).trim()).toBe(key);

    await chmod(file, 0o644);
    expect(await readOrCreateConsoleKey(dir, storage)).toBe(key);
    if (ownerOnly) expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("treats Linux's fixed-password store (basic_text) as no encryption", async () => {
    const basic = new FakeSafeStorage();
    basic.backend = 'basic_text';
    const linux = storageWith(basic);
    const key = await readOrCreateConsoleKey(dir, linux);
    expect((await readFile(path.join(dir, CONSOLE_KEY_FILE), 'utf8')).trim()).toBe(key);
    expect(existsSync(path.join(dir, ENCRYPTED_CONSOLE_KEY_FILE))).toBe(false);
    expect(linux.logged).toEqual([expect.stringContaining('fixed password')]);
  });
});

describe('console key encrypted with safeStorage', () => {
  let dir: string;
  let safeStorage: FakeSafeStorage;
  let storage: ReturnType<typeof storageWith>;
  beforeEach(() => {
    dir = useTempDir('switchyard-key-');
    safeStorage = new FakeSafeStorage();
    storage = storageWith(safeStorage);
  });

  it('keeps a new key only encrypted: no clear text on disk, and the same key on every later launch', async () => {
    const key = await readOrCreateConsoleKey(path.join(dir, 'userData'), storage);
    expect(key).toMatch(/^sk-sy-[A-Za-z0-9_-]{32}$/);
    const encrypted = path.join(dir, 'userData', ENCRYPTED_CONSOLE_KEY_FILE);
    const bytes = await readFile(encrypted);
    expect(bytes.includes(Buffer.from(key))).toBe(false);
    expect(bytes.includes(Buffer.from(key.slice(6)))).toBe(false);
    expect((await safeStorage.decryptStringAsync(bytes)).result).toBe(key);
    expect(existsSync(path.join(dir, 'userData', CONSOLE_KEY_FILE))).toBe(false);
    if (ownerOnly) expect((await stat(encrypted)).mode & 0o777).toBe(0o600);

    expect(await readOrCreateConsoleKey(path.join(dir, 'userData'), storage)).toBe(key);
    expect(safeStorage.encryptions).toBe(1);
    expect(storage.logged).toEqual([]);
  });

  it('also on macOS and Windows, which have no storage backend to ask about', async () => {
    safeStorage.backend = 'unknown';
    const key = await readOrCreateConsoleKey(dir, storageWith(safeStorage, 'darwin'));
    expect(
      (await safeStorage.decryptStringAsync(await readFile(path.join(dir, ENCRYPTED_CONSOLE_KEY_FILE)))).result,
    ).toBe(key);
  });

  it('moves a clear-text key from an earlier version into the encrypted file and removes the clear text', async () => {
    const earlier = await readOrCreateConsoleKey(dir, storageWith(unavailableSafeStorage()));
    expect(existsSync(path.join(dir, CONSOLE_KEY_FILE))).toBe(true);

    expect(await readOrCreateConsoleKey(dir, storage)).toBe(earlier);
    expect(existsSync(path.join(dir, CONSOLE_KEY_FILE))).toBe(false);
    expect(
      (await safeStorage.decryptStringAsync(await readFile(path.join(dir, ENCRYPTED_CONSOLE_KEY_FILE)))).result,
    ).toBe(earlier);
    expect(storage.logged).toEqual([expect.stringContaining('moved')]);
    expect(await readOrCreateConsoleKey(dir, storage)).toBe(earlier);
  });

  it('replaces a file that no longer decrypts (another key store) with a new key, saying so', async () => {
    const first = await readOrCreateConsoleKey(dir, storageWith(new FakeSafeStorage()));
    const key = await readOrCreateConsoleKey(dir, storage);
    expect(key).toMatch(/^sk-sy-/);
    expect(key).not.toBe(first);
    expect(storage.logged).toEqual([expect.stringContaining('could not be decrypted')]);
    expect(await readOrCreateConsoleKey(dir, storage)).toBe(key);
  });

  it('keeps the key unencrypted in a 0600 file, saying why, when encrypting fails although offered', async () => {
    safeStorage.failEncryption = true;
    const key = await readOrCreateConsoleKey(dir, storage);
    expect((await readFile(path.join(dir, CONSOLE_KEY_FILE), 'utf8')).trim()).toBe(key);
    if (ownerOnly) expect((await stat(path.join(dir, CONSOLE_KEY_FILE))).mode & 0o777).toBe(0o600);
    expect(storage.logged).toEqual([expect.stringContaining('encrypting it failed')]);
    // Once encryption works again, that key moves into the encrypted file.
    safeStorage.failEncryption = false;
    expect(await readOrCreateConsoleKey(dir, storage)).toBe(key);
    expect(existsSync(path.join(dir, CONSOLE_KEY_FILE))).toBe(false);
  });

  it('encrypts the key again when the key store asks for it (its key was rotated)', async () => {
    const key = await readOrCreateConsoleKey(dir, storage);
    const before = await readFile(path.join(dir, ENCRYPTED_CONSOLE_KEY_FILE));
    safeStorage.shouldReEncrypt = true;
    expect(await readOrCreateConsoleKey(dir, storage)).toBe(key);
    expect(safeStorage.encryptions).toBe(2);
    expect((await readFile(path.join(dir, ENCRYPTED_CONSOLE_KEY_FILE))).equals(before)).toBe(false);
  });
});
