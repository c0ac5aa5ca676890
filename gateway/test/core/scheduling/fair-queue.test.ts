import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../../src/core/scheduling/fair-queue.js';

/** A job that runs until the test ends it, recording when it started. */
function heldJobs(queue: FairQueue) {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  const submit = (key: string, name: string, signal = new AbortController().signal) =>
    queue.run(key, signal, () => {
      started.push(name);
      return new Promise<string>((resolve) => release.set(name, () => resolve(name)));
    });
  const finish = async (name: string) => {
    release.get(name)!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, submit, finish };
}

describe('FairQueue', () => {
  it('runs at most `concurrency` jobs, and at most `perKey` of one key', async () => {
    const { started, submit, finish } = heldJobs(new FairQueue({ concurrency: 3, perKey: 2 }));
    const jobs = ['a1', 'a2', 'a3', 'a4'].map((name) => submit('a', name));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a1', 'a2']);
    await finish('a1');
    expect(started).toEqual(['a1', 'a2', 'a3']);
    await finish('a2');
    await finish('a3');
    await finish('a4');
    expect(await Promise.all(jobs)).toEqual(['a1', 'a2', 'a3', 'a4']);
  });

  it("gives another key's first job the next free slot, however long the first key's backlog", async () => {
    const queue = new FairQueue({ concurrency: 1, perKey: 1 });
    const { started, submit, finish } = heldJobs(queue);
    for (let n = 1; n <= 10; n++) void submit('a', `a${n}`);
    await new Promise((resolve) => setImmediate(resolve));
    void submit('b', 'b1');
    await finish('a1');
    expect(started).toEqual(['a1', 'b1']);
    expect(queue.depth()).toEqual({ waiting: 9, running: 1 });
  });

  it('takes turns round-robin between keys with backlogs; a key that starts waiting goes before the keys served since', async () => {
    const { started, submit, finish } = heldJobs(new FairQueue({ concurrency: 1, perKey: 1 }));
    for (const name of ['a1', 'a2', 'a3', 'b1', 'b2', 'b3']) void submit(name[0]!, name);
    await new Promise((resolve) => setImmediate(resolve));
    await finish('a1');
    void submit('c', 'c1');
    for (const name of ['b1', 'a2', 'c1', 'b2', 'a3']) await finish(name);
    expect(started).toEqual(['a1', 'b1', 'a2', 'c1', 'b2', 'a3', 'b3']);
  });

  it('takes a job whose signal aborts while it waits out of the queue', async () => {
    const queue = new FairQueue({ concurrency: 1, perKey: 1 });
    const { started, submit, finish } = heldJobs(queue);
    void submit('a', 'a1');
    const leaving = new AbortController();
    const left = submit('b', 'b1', leaving.signal);
    void submit('c', 'c1');
    leaving.abort();
    await expect(left).rejects.toThrow();
    await finish('a1');
    expect(started).toEqual(['a1', 'c1']);
    expect(queue.depth()).toEqual({ waiting: 0, running: 1 });
  });

  it('frees the slot of a job that fails', async () => {
    const queue = new FairQueue({ concurrency: 1, perKey: 1 });
    await expect(
      queue.run('a', new AbortController().signal, () => Promise.reject(new Error('broken'))),
    ).rejects.toThrow('broken');
    expect(await queue.run('a', new AbortController().signal, async () => 'next')).toBe('next');
    expect(queue.depth()).toEqual({ waiting: 0, running: 0 });
  });
});
