import { describe, expect, it } from 'vitest';
import { engineQueues } from '../../../src/features/status/engine-queues';

describe('engine queues from /metrics', () => {
  it('pairs the waiting and running samples of each provider queue and ignores other metrics', () => {
    const text = [
      '# HELP switchyard_engine_queue_requests Requests waiting for or running on a local engine queue.',
      '# TYPE switchyard_engine_queue_requests gauge',
      'switchyard_engine_queue_requests{switchyard_provider_id="local-ocr",queue="ocr_workers",state="waiting"} 3',
      'switchyard_engine_queue_requests{switchyard_provider_id="local-ocr",queue="ocr_workers",state="running"} 2',
      'switchyard_engine_queue_requests{switchyard_provider_id="local-llm",queue="qwen \\"small\\"",state="running"} 1',
      'switchyard_errors_total{error_type="timeout"} 4',
    ].join('\n');
    expect(engineQueues(text)).toEqual([
      { provider: 'local-ocr', queue: 'ocr_workers', waiting: 3, running: 2 },
      { provider: 'local-llm', queue: 'qwen \\"small\\"', waiting: 0, running: 1 },
    ]);
    expect(engineQueues('')).toEqual([]);
  });
});
