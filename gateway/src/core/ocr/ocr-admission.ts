import type { ModelRoute } from '../routing/model-registry.js';
import { FairQueue, type FairQueueLimits } from '../scheduling/fair-queue.js';

/** The queue of page rendering (local CPU), beside one queue per local OCR engine. */
const RENDERING = '#rendering';

/**
 * Fair turns by key on the gateway's own document capacity: each local OCR engine (a provider that
 * reports its queues: its workers are shared by every key) and page rendering. Upstream OCR
 * providers are called at once, as chat is.
 */
export class OcrAdmission {
  /** One queue per local engine (by provider id, so a provider replaced in Settings keeps its turns) and one for rendering. */
  private readonly queues = new Map<string, FairQueue>();

  constructor(private readonly limits: FairQueueLimits) {}

  /** `task` (an OCR call on `route`'s engine) in `keyId`'s turn when the engine is local; at once upstream. */
  engine<T>(route: ModelRoute, keyId: string | null, signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    if (!route.provider.queues) return task();
    return this.queue(route.provider.id).run(keyId ?? '', signal, task);
  }

  /** `task` (rendering a page) in `keyId`'s turn. */
  rendering<T>(keyId: string | null, signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    return this.queue(RENDERING).run(keyId ?? '', signal, task);
  }

  private queue(name: string): FairQueue {
    let queue = this.queues.get(name);
    if (!queue) this.queues.set(name, (queue = new FairQueue(this.limits)));
    return queue;
  }
}
