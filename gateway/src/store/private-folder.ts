import { closeSync, fchmodSync, fstatSync, openSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders that hold the gateway's data: the user's alone (rwx------). */
export const PRIVATE_FOLDER_MODE = 0o700;
/** Files the gateway writes there (database, uploads, journals, keys, downloaded models): rw-------. */
export const PRIVATE_FILE_MODE = 0o600;

const GROUP_AND_OTHERS = 0o077;
const STICKY = 0o1000;

/** Windows has no owner/group/other modes; there folders and files are only created. */
const hasOwnerModes = process.platform !== 'win32';

/**
 * `private`: it was already (or is now, made new) the user's alone; `tightened`: it had looser
 * modes and was closed; `shared`: a folder others share (sticky like /tmp, or another user's),
 * left as it is.
 */
export type PrivateFolderOutcome = 'private' | 'tightened' | 'shared';

/**
 * Creates `folder` (and missing parents) 0700. A folder of this user's that exists with looser
 * modes (made by an earlier version, by hand, or under a loose umask) is tightened, and so are the
 * entries in it that `isOwnEntry` names, with everything under them: folders to 0700, files to
 * 0600 (the owner's bits are kept, group and others lose theirs). Other entries (the user's own
 * files next to the gateway's) are left as they are, and so are symbolic links: chmod would change
 * what they point to.
 */
export async function makePrivateFolder(
  folder: string,
  isOwnEntry: (name: string) => boolean = () => true,
): Promise<PrivateFolderOutcome> {
  await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (!hasOwnerModes) return 'private';
  const { mode, uid } = await stat(folder);
  if ((mode & GROUP_AND_OTHERS) === 0) return 'private';
  if ((mode & STICKY) !== 0 || uid !== process.getuid?.()) return 'shared';
  await chmod(folder, mode & PRIVATE_FOLDER_MODE);
  await tightenContents(folder, isOwnEntry);
  return 'tightened';
}

async function tightenContents(folder: string, isOwnEntry: (name: string) => boolean): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isSymbolicLink() || !isOwnEntry(entry.name)) continue;
    const path = join(folder, entry.name);
    // A file removed between the listing and here is no longer anyone's concern.
    const mode = await lstat(path).then(
      (stats) => stats.mode,
      () => null,
    );
    if (mode === null) continue;
    if ((mode & GROUP_AND_OTHERS) !== 0) await chmod(path, mode & PRIVATE_FOLDER_MODE).catch(() => undefined);
    if (entry.isDirectory()) await tightenContents(path, () => true);
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
