import { closeSync, fsync, mkdirSync, openSync, truncateSync, writeSync } from 'node:fs';
import { readdir, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../../store/private-folder.js';
import type { UsageRecord } from '../../store/usage-repository.js';

/** Past this size the file starts over once the database holds every entry in it. */
const RESTART_BYTES = 1 << 20;

/**
 * A local file (one JSON ledger entry per line, in GATEWAY_DATA_DIR) that holds the usage of answered
 * requests before the database does: the ledger appends each turn's entries to it before their
 * answers leave, then commits them to the database without the answers waiting. The append reaches
 * the operating system's page cache (the durability of SQLite's synchronous=NORMAL): a process that
 * is killed loses nothing, and while the database refuses writes the file is fsync'd too. At the next
 * start the file (and those of gateways of this folder that died) is replayed; each entry carries its
 * `entry_id`, so an entry both in a file and in the database is written once.
 */
export class UsageJournal {
  private fd: number | undefined;
  /** Bytes appended since the file last started over. */
  private bytes = 0;
  /** Appended since the last fsync began. */
  private unsynced = false;
  /** The last fsync. */
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    /** Other journals of this folder whose gateway is gone, to replay with this one's at the start. */
    private readonly orphans: () => Promise<string[]> = async () => [],
  ) {}

  /**
   * The entries this journal and the orphaned ones kept from processes before, claimed so no other
   * gateway starting now replays them too; `replayed()` removes them once the database has them.
   */
  async takeOver(): Promise<{ entries: UsageRecord[]; replayed(): Promise<void> }> {
    const claimed: string[] = [];
    const stamp = Date.now();
    for (const orphan of await this.orphans()) {
      const claim = `${this.path}.${stamp}${claimed.length}.replay`;
      // A rename is atomic: of two gateways starting at once, one claims the file.
      if (
        await rename(orphan, claim).then(
          () => true,
          () => false,
        )
      )
        claimed.push(claim);
    }
    const entries: UsageRecord[] = [];
    for (const path of [...claimed, this.path]) entries.push(...(await readEntries(path)));
    return {
      entries,
      replayed: async () => {
        for (const path of claimed) await unlink(path);
        this.startOver();
      },
    };
  }

  /** Appends the entries now (one write), so they survive the process; throws when the disk refuses. */
  appendNow(entries: readonly UsageRecord[]): void {
    let text = '';
    for (const entry of entries) text += `${JSON.stringify(entry)}\n`;
    this.fd ??= openAppending(this.path);
    this.bytes += writeSync(this.fd, text);
    this.unsynced = true;
  }

  /** Waits until what was appended is on the disk itself (a power loss keeps it too). */
  sync(): Promise<void> {
    const fd = this.fd;
    if (fd === undefined || !this.unsynced) return this.syncing;
    this.unsynced = false;
    this.syncing = new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
    return this.syncing;
  }

  /** The database holds every entry appended so far: a large file starts over. */
  allCommitted(): void {
    if (this.bytes > RESTART_BYTES) this.startOver();
  }

  /** Stops appending; with every entry committed, the file is removed. */
  async close(allCommitted: boolean): Promise<void> {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (allCommitted) await unlink(this.path).catch(ignoreMissing);
  }

  /** Empties the file (the database holds every entry in it). */
  startOver(): void {
    this.fd ??= openAppending(this.path);
    // By path, not on the appending descriptor: Windows opens that one without the right to truncate.
    truncateSync(this.path, 0);
    this.bytes = 0;
  }
}

function openAppending(path: string): number {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  return openSync(path, 'a', PRIVATE_FILE_MODE);
}

async function readEntries(path: string): Promise<UsageRecord[]> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const entries: UsageRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      entries.push(JSON.parse(line) as UsageRecord);
    } catch {
      // The last line of a write the crash cut short: its answers never left.
    }
  }
  return entries;
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

const UNNAMED = /^usage-journal(?:\.(\d+))?\.ndjson(?:\.\d+\.replay)?$/;

/** Whether a process with this id runs (the journal of a gateway that died is replayed by the next). */
function running(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The journal of one gateway. A named instance (GATEWAY_INSTANCE_ID) keeps
 * `usage-journal-<instance id>.ndjson` and finds it again after a restart. An unnamed one keeps
 * `usage-journal.<process id>.ndjson`, so two started on one data folder never share a file, and at
 * its start replays the files of unnamed gateways whose process is gone (and `usage-journal.ndjson`
 * of versions before this one).
 */
export function usageJournalAt(dataDir: string, namedInstance?: string): UsageJournal {
  if (namedInstance)
    return new UsageJournal(join(dataDir, `usage-journal-${namedInstance.replace(/[^A-Za-z0-9._-]/g, '_')}.ndjson`));
  return new UsageJournal(join(dataDir, `usage-journal.${process.pid}.ndjson`), async () => {
    const names = await readdir(dataDir).catch(() => []);
    return names.flatMap((name) => {
      const match = UNNAMED.exec(name);
      return match && !(match[1] && running(Number(match[1]))) ? [join(dataDir, name)] : [];
    });
  });
}
