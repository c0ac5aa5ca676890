export interface EngineQueue {
  provider: string;
  queue: string;
  waiting: number;
  running: number;
}

const SAMPLE = /^switchyard_engine_queue_requests\{([^}]*)\}\s+(\S+)/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** The local engines' queues (llama.cpp models, the OCR workers) from the Prometheus text of /metrics. */
export function engineQueues(metricsText: string): EngineQueue[] {
  const byKey = new Map<string, EngineQueue>();
  for (const line of metricsText.split('\n')) {
    const match = SAMPLE.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...match[1].matchAll(LABEL)].map((m) => [m[1], m[2]]));
    const value = Number(match[2]);
    const provider = labels.switchyard_provider_id ?? '';
    const queue = labels.queue ?? '';
    if (!Number.isFinite(value) || (labels.state !== 'waiting' && labels.state !== 'running')) continue;
    const key = `${provider}\u0000${queue}`;
    const entry = byKey.get(key) ?? { provider, queue, waiting: 0, running: 0 };
    entry[labels.state] = value;
    byKey.set(key, entry);
  }
  return [...byKey.values()];
}
