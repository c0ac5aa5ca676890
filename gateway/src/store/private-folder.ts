import { closeSync, fchmodSync, fstatSync, openSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders that hold the gateway's data: the user's alone (rwx------). */
export const PRIVATE_FOLDER_MODE = 0o700;
/** Files the gateway writes there (database, uploads, journals, keys, downloaded models): rw-------. */
export const PRIVATE_FILE_MODE = 0o600;

const GROUP_AND_OTHERS = 0o077;

/** Windows has no owner/group/other modes; there folders and files are only created. */
const hasOwnerModes = process.platform !== 'win32';

/**
 * Creates `folder` (and missing parents) 0700. A folder that exists with looser modes (made by an
 * earlier version, by hand, or under a loose umask) is tightened, and so is everything in it:
 * folders to 0700, files to 0600 (the owner's bits are kept, group and others lose theirs).
 * Symbolic links are left as they are: chmod would change what they point to.
 */
export async function makePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (!hasOwnerModes) return;
  const { mode } = await stat(folder);
  if ((mode & GROUP_AND_OTHERS) === 0) return;
  await chmod(folder, mode & PRIVATE_FOLDER_MODE);
  await tightenContents(folder);
}

async function tightenContents(folder: string): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const path = join(folder, entry.name);
    // A file removed between the listing and here is no longer anyone's concern.
    const mode = await lstat(path).then((stats) => stats.mode, () => null);
    if (mode === null) continue;
    if ((mode & GROUP_AND_OTHERS) !== 0) await chmod(path, mode & PRIVATE_FOLDER_MODE).catch(() => undefined);
    if (entry.isDirectory()) await tightenContents(path);
  }
}

/**
 * Creates `file` empty with mode 0600 unless it exists, and tightens it if it exists with looser
 * modes: for files that a native library creates with the umask's modes (SQLite gives its WAL and
 * shared-memory files the database file's mode, so creating the database file first covers them).
 */
export function ensurePrivateFile(file: string): void {
  if (!hasOwnerModes) return;
  const fd = openSync(file, 'a', PRIVATE_FILE_MODE);
  try {
    const { mode } = fstatSync(fd);
    if ((mode & GROUP_AND_OTHERS) !== 0) fchmodSync(fd, mode & PRIVATE_FOLDER_MODE);
  } finally {
    closeSync(fd);
  }
}
