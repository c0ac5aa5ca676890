import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const CONSOLE_KEY_FILE = 'console-key';
const KEY_PATTERN = /^sk-sy-[A-Za-z0-9_-]{32}$/;

/** A new Owner key: `sk-sy-` and 32 base64url characters (24 random bytes). */
export function generateConsoleKey(): string {
  return `sk-sy-${randomBytes(24).toString('base64url')}`;
}

/**
 * The console's Owner key, kept in `<dir>/console-key` with mode 0600 so it survives restarts and
 * only this user can read it. Created on first launch; a file holding something that is not a
 * key is replaced.
 */
export async function readOrCreateConsoleKey(dir: string): Promise<string> {
  const file = path.join(dir, CONSOLE_KEY_FILE);
  const existing = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    },
  );
  if (existing !== null && KEY_PATTERN.test(existing)) {
    // Tighten a file someone copied in with looser permissions.
    await chmod(file, 0o600);
    return existing;
  }
  const key = generateConsoleKey();
  await writeConsoleKey(dir, key);
  return key;
}

/** Keeps `key` as the console's Owner key in `<dir>/console-key` (mode 0600), replacing the old one. */
export async function writeConsoleKey(dir: string, key: string): Promise<void> {
  const file = path.join(dir, CONSOLE_KEY_FILE);
  await mkdir(dir, { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}
