import { mkdir, open, readFile, truncate } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { UsageRecord } from '../../store/usage-repository.js';

/**
 * A local file (one JSON ledger entry per line, in GATEWAY_DATA_DIR) that keeps the usage of answered
 * requests the database did not take: appended and fsync'd once per batch before the answers leave,
 * read back at the next start, emptied once the database holds every entry in it. Each entry carries
 * its `entry_id`, so an entry both in the file and in the database (a crash between the commit and the
 * emptying) is written once.
 */
export class UsageJournal {
  /** Appends and truncations run one after another. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Whether the file may hold entries (known after the first read or append). */
  private holdsEntries = true;

  constructor(readonly path: string) {}

  /** The entries a previous process left (a line cut by a crash mid-write is skipped: its batch was never acknowledged). */
  async read(): Promise<UsageRecord[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.holdsEntries = false;
        return [];
      }
      throw error;
    }
    const entries: UsageRecord[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        entries.push(JSON.parse(line) as UsageRecord);
      } catch {
        // The last line of a write the crash cut short.
      }
    }
    this.holdsEntries = entries.length > 0;
    return entries;
  }

  /** Appends the entries and waits for them to reach the disk (one fsync for the batch). */
  append(entries: readonly UsageRecord[]): Promise<void> {
    if (entries.length === 0) return this.queue.then(() => undefined);
    return this.serially(async () => {
      await mkdir(dirname(this.path), { recursive: true });
      const file = await open(this.path, 'a');
      try {
        await file.write(entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
        await file.sync();
      } finally {
        await file.close();
      }
      this.holdsEntries = true;
    });
  }

  /** Empties the file once the database holds every entry in it. */
  clear(): Promise<void> {
    return this.serially(async () => {
      if (!this.holdsEntries) return;
      await truncate(this.path, 0).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      this.holdsEntries = false;
    });
  }

  private serially(step: () => Promise<void>): Promise<void> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * The journal of one gateway: `<data dir>/usage-journal.ndjson`, or `usage-journal-<instance id>.ndjson`
 * when the instance is named (GATEWAY_INSTANCE_ID), so instances that share a data folder keep one each
 * and find their own again after a restart.
 */
export function usageJournalAt(dataDir: string, namedInstance?: string): UsageJournal {
  const suffix = namedInstance ? `-${namedInstance.replace(/[^A-Za-z0-9._-]/g, '_')}` : '';
  return new UsageJournal(join(dataDir, `usage-journal${suffix}.ndjson`));
}
