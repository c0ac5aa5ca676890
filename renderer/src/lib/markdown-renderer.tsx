import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { MarkdownDone, MarkdownJob } from './markdown-worker';
import { safeHtml } from './safe-html';

/** Formats markdown away from the page's thread; resolves with sanitised HTML. */
export interface MarkdownRenderer {
  render(source: string): Promise<string>;
  close(): void;
}

/** A job the worker has not answered in this long is given up, and the worker replaced. */
const JOB_TIMEOUT_MS = 10_000;

/**
 * One worker for the whole console, started on the first job. A job that runs too long (or a
 * worker that fails) rejects, and the next job starts a fresh worker.
 */
export function createWorkerMarkdownRenderer(startWorker: () => Worker): MarkdownRenderer {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<
    number,
    { resolve(html: string): void; reject(error: Error): void; timer: ReturnType<typeof setTimeout> }
  >();
  const close = (reason = 'The markdown worker was stopped.') => {
    worker?.terminate();
    worker = null;
    for (const job of pending.values()) {
      clearTimeout(job.timer);
      job.reject(new Error(reason));
    }
    pending.clear();
  };
  const start = (): Worker => {
    const started = startWorker();
    started.onmessage = (event: MessageEvent<MarkdownDone>) => {
      const job = pending.get(event.data.id);
      if (!job) return;
      pending.delete(event.data.id);
      clearTimeout(job.timer);
      job.resolve(safeHtml(event.data.html));
    };
    started.onerror = () => close('The markdown worker failed.');
    return started;
  };
  return {
    render(source) {
      worker ??= start();
      const id = nextId++;
      const job: MarkdownJob = { id, source };
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => close(`Formatting took longer than ${JOB_TIMEOUT_MS / 1000} s.`),
          JOB_TIMEOUT_MS,
        );
        pending.set(id, { resolve, reject, timer });
        worker?.postMessage(job);
      });
    },
    close: () => close(),
  };
}

const startMarkdownWorker = () => new Worker(new URL('./markdown-worker.ts', import.meta.url), { type: 'module' });

const MarkdownRendererContext = createContext<MarkdownRenderer | null>(null);

/** Gives the console its markdown worker (none where workers do not exist: text is then formatted in place). */
export function MarkdownRendererProvider({ children }: { children: ReactNode }) {
  const [renderer] = useState(() =>
    typeof Worker === 'undefined' ? null : createWorkerMarkdownRenderer(startMarkdownWorker),
  );
  useEffect(() => () => renderer?.close(), [renderer]);
  return <MarkdownRendererContext.Provider value={renderer}>{children}</MarkdownRendererContext.Provider>;
}

/** The test seam: a component test provides its own renderer. */
export const MarkdownRendererTestProvider = MarkdownRendererContext.Provider;

export const useMarkdownRenderer = (): MarkdownRenderer | null => useContext(MarkdownRendererContext);
