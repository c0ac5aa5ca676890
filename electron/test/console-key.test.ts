import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../../gateway/test/support/use-resources.js';
import { CONSOLE_KEY_FILE, readOrCreateConsoleKey } from '../main/console-key.js';

const ownerOnly = process.platform !== 'win32';

describe('console key file', () => {
  let dir: string;
  beforeEach(() => {
    dir = useTempDir('switchyard-key-');
  });

  it('creates an sk-sy- key on first launch, readable by the user only', async () => {
    const key = await readOrCreateConsoleKey(path.join(dir, 'userData'));
    expect(key).toMatch(/^sk-sy-[A-Za-z0-9_-]{32}$/);
    const file = path.join(dir, 'userData', CONSOLE_KEY_FILE);
    expect((await readFile(file, 'utf8')).trim()).toBe(key);
    if (ownerOnly) expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('reuses the same key on every later launch', async () => {
    const first = await readOrCreateConsoleKey(dir);
    expect(await readOrCreateConsoleKey(dir)).toBe(first);
    expect(await readOrCreateConsoleKey(dir)).toBe(first);
  });

  it('generates different keys for different installs', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'switchyard-key-'));
    try {
      expect(await readOrCreateConsoleKey(dir)).not.toBe(await readOrCreateConsoleKey(other));
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('replaces a file that does not hold a key and tightens loose permissions', async () => {
    const file = path.join(dir, CONSOLE_KEY_FILE);
    await writeFile(file, 'not a key\n', { mode: 0o644 });
    const key = await readOrCreateConsoleKey(dir);
    expect(key).toMatch(/^sk-sy-/);
    expect((await readFile(file, 'utf8')).trim()).toBe(key);

    await chmod(file, 0o644);
    expect(await readOrCreateConsoleKey(dir)).toBe(key);
    if (ownerOnly) expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
