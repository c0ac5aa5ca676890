import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time (user + system) in microseconds from a /proc `stat` file, and the thread's or process's name. */
function readStat(path: string): { name: string; micros: number } {
  const stat = readFileSync(path, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    micros: ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6,
  };
}

/** CPU time (user + system) a process has used so far, in microseconds, from /proc. */
export function cpuMicros(pid: number): number {
  return readStat(`/proc/${pid}/stat`).micros;
}

export const THREAD_GROUPS = ['event loop', 'worker threads', 'V8 helpers', 'other'] as const;
export type ThreadGroup = (typeof THREAD_GROUPS)[number];

/**
 * CPU time so far of a Node process's threads, in microseconds, by kind: the event loop (the main
 * thread), worker threads (the gateway's SQLite writer), V8's helper threads (garbage collection and
 * the optimising compiler in the background), and the rest (libuv's pool, libsql's runtime).
 */
export function threadCpuMicros(pid: number): Record<ThreadGroup, number> {
  const groups: Record<ThreadGroup, number> = { 'event loop': 0, 'worker threads': 0, 'V8 helpers': 0, other: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let thread: { name: string; micros: number };
    try {
      thread = readStat(`/proc/${pid}/task/${tid}/stat`);
    } catch {
      continue; // the thread ended in between
    }
    const group: ThreadGroup =
      tid === String(pid)
        ? 'event loop'
        : thread.name === 'WorkerThread'
          ? 'worker threads'
          : /^(V8|DelayedTask)/.test(thread.name)
            ? 'V8 helpers'
            : 'other';
    groups[group] += thread.micros;
  }
  return groups;
}

/** Resident memory of a process, in MiB, from /proc. */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  return kib / 1024;
}
