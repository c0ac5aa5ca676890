import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SafeStorageLike } from './electron-surface.js';

/** The key in clear text (mode 0600): only where safeStorage cannot encrypt it. */
export const CONSOLE_KEY_FILE = 'console-key';
/** The key encrypted with Electron's safeStorage. */
export const ENCRYPTED_CONSOLE_KEY_FILE = 'console-key.enc';
const KEY_PATTERN = /^sk-sy-[A-Za-z0-9_-]{32}$/;

export interface ConsoleKeyStorage {
  safeStorage: SafeStorageLike;
  platform: NodeJS.Platform;
  log(message: string): void;
}

/** A new Owner key: `sk-sy-` and 32 base64url characters (24 random bytes). */
export function generateConsoleKey(): string {
  return `sk-sy-${randomBytes(24).toString('base64url')}`;
}

/** Why safeStorage cannot protect the key on this machine, or null when it can. */
async function encryptionUnavailable({ safeStorage, platform }: ConsoleKeyStorage): Promise<string | null> {
  if (!(await safeStorage.isAsyncEncryptionAvailable()))
    return 'the operating system offers no encryption to this app (no keychain or secret service)';
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
    return 'no secret service (GNOME Keyring, KWallet) answers, and Electron would encrypt with a fixed password';
  }
  return null;
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function readIfPresent(file: string): Promise<Buffer | null> {
  return readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

/** The key in a clear-text file, or null when there is none or it holds something else. */
async function readPlainKey(file: string): Promise<string | null> {
  const key = (await readIfPresent(file))?.toString('utf8').trim();
  return key !== undefined && KEY_PATTERN.test(key) ? key : null;
}

/** Written under another name and renamed, so a crash never leaves half a file in place of the key. */
async function writePrivate(file: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.partial-${randomBytes(4).toString('hex')}`;
  await writeFile(partial, content, { mode: 0o600 });
  await chmod(partial, 0o600);
  await rename(partial, file);
}

async function readOrCreatePlainKey(file: string): Promise<string> {
  const existing = await readPlainKey(file);
  if (existing !== null) {
    // Tighten a file someone copied in with looser permissions.
    await chmod(file, 0o600);
    return existing;
  }
  const key = generateConsoleKey();
  await writePrivate(file, `${key}\n`);
  return key;
}

/**
 * The console's Owner key, kept in `<dir>` across restarts. Encrypted with Electron's safeStorage
 * (`console-key.enc`) where the operating system offers it; otherwise, with the reason logged, in
 * clear text in `console-key` with mode 0600. A clear-text key left by an earlier version (or a
 * launch without a secret service) is moved into the encrypted file and removed. Created on first
 * launch; a file that holds no key, or that no longer decrypts, is replaced by a new key.
 */
export async function readOrCreateConsoleKey(dir: string, storage: ConsoleKeyStorage): Promise<string> {
  const plainFile = path.join(dir, CONSOLE_KEY_FILE);
  const unavailable = await encryptionUnavailable(storage);
  if (unavailable !== null) {
    storage.log(`the console key is kept unencrypted in ${plainFile}, readable by this user only: ${unavailable}`);
    return readOrCreatePlainKey(plainFile);
  }
  const encryptedFile = path.join(dir, ENCRYPTED_CONSOLE_KEY_FILE);
  const seal = async (key: string) => writePrivate(encryptedFile, await storage.safeStorage.encryptStringAsync(key));
  const encrypted = await readIfPresent(encryptedFile);
  let key: string | null = null;
  if (encrypted !== null) {
    try {
      const { result, shouldReEncrypt } = await storage.safeStorage.decryptStringAsync(encrypted);
      if (KEY_PATTERN.test(result)) {
        key = result;
        // Still readable as it is: a failed re-encryption is tried again at the next launch.
        if (shouldReEncrypt)
          await seal(key).catch((error: unknown) =>
            storage.log(`${encryptedFile} could not be encrypted again: ${reason(error)}`),
          );
      } else {
        storage.log(`${encryptedFile} holds no console key; it is replaced`);
      }
    } catch (error) {
      storage.log(`${encryptedFile} could not be decrypted (${reason(error)}); it is replaced`);
    }
  }
  if (key === null) {
    const plain = await readPlainKey(plainFile);
    key = plain ?? generateConsoleKey();
    try {
      await seal(key);
    } catch (error) {
      storage.log(
        `the console key is kept unencrypted in ${plainFile}, readable by this user only: encrypting it failed (${reason(error)})`,
      );
      if (plain === null) await writePrivate(plainFile, `${key}\n`);
      return key;
    }
    if (plain !== null)
      storage.log(
        `the console key moved from ${plainFile} into ${encryptedFile}, encrypted with the operating system's key store`,
      );
  }
  // No clear-text copy stays next to the encrypted one.
  await rm(plainFile, { force: true });
  return key;
}

/**
 * Keeps `key` as the console's Owner key in `<dir>`, replacing the one there (the gateway made a new
 * one because the old one was revoked): encrypted where safeStorage can, else in clear text with mode
 * 0600, the reason logged. No other copy of the old key stays behind.
 */
export async function writeConsoleKey(dir: string, key: string, storage: ConsoleKeyStorage): Promise<void> {
  const plainFile = path.join(dir, CONSOLE_KEY_FILE);
  const encryptedFile = path.join(dir, ENCRYPTED_CONSOLE_KEY_FILE);
  const unavailable = await encryptionUnavailable(storage);
  if (unavailable === null) {
    try {
      await writePrivate(encryptedFile, await storage.safeStorage.encryptStringAsync(key));
      await rm(plainFile, { force: true });
      return;
    } catch (error) {
      storage.log(
        `the console key is kept unencrypted in ${plainFile}, readable by this user only: encrypting it failed (${reason(error)})`,
      );
    }
  } else {
    storage.log(`the console key is kept unencrypted in ${plainFile}, readable by this user only: ${unavailable}`);
  }
  await writePrivate(plainFile, `${key}\n`);
  await rm(encryptedFile, { force: true });
}
