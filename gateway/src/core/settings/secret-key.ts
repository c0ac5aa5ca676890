import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../../config/config-error.js';
import { PRIVATE_FOLDER_MODE } from '../../store/private-folder.js';

export const SECRET_KEY_FILE = 'secret.key';

export interface SecretKey {
  key: Buffer;
  /** Where it came from, for messages: `GATEWAY_SECRET_KEY` or the file's path. */
  source: string;
}

/** 32 bytes written as 64 hex digits or as base64; undefined for anything else. */
function decodeKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

const HOW_TO_MAKE = 'e.g. the output of `openssl rand -base64 32`';

/**
 * The key that encrypts secrets at rest: GATEWAY_SECRET_KEY when set (team mode: give every instance
 * the same one), otherwise `<dataDir>/secret.key`, created with mode 0600 at first start. Neither
 * is ever written to the database.
 */
export async function loadSecretKey(dataDir: string, fromEnv: string | undefined): Promise<SecretKey> {
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const key = decodeKey(fromEnv);
    if (!key)
      throw new ConfigError(
        `GATEWAY_SECRET_KEY: must be 32 bytes written as base64 or 64 hex digits (${HOW_TO_MAKE}).`,
      );
    return { key, source: 'GATEWAY_SECRET_KEY' };
  }
  const path = join(dataDir, SECRET_KEY_FILE);
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  try {
    await writeFile(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Already there (made at an earlier start, or by another instance starting on the same folder).
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = decodeKey(await readFile(path, 'utf8'));
  if (!key)
    throw new ConfigError(
      `${path}: not a secret key (32 bytes as base64, ${HOW_TO_MAKE}); restore the file the secrets were encrypted with, or set GATEWAY_SECRET_KEY.`,
    );
  if (((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
  return { key, source: path };
}
