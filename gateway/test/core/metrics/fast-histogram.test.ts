import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastHistogram } from '../../../src/core/metrics/fast-histogram.js';

const BUCKETS = [0.005, 0.01, 0.1, 1, 10];
const LABELS = ['route', 'status', 'model'] as const;

describe('FastHistogram', () => {
  it("is exposed exactly as prom-client's histogram of the same observations (buckets, +Inf, sum, count, label escaping)", async () => {
    const reference = new Registry();
    const fast = new Registry();
    const theirs = new Histogram({
      name: 'req_seconds',
      help: 'Request "duration"\nin seconds.',
      labelNames: [...LABELS],
      buckets: BUCKETS,
      registers: [reference],
    });
    const ours = new FastHistogram('req_seconds', 'Request "duration"\nin seconds.', LABELS, BUCKETS, fast);
    const observations: [Record<(typeof LABELS)[number], string | number>, number][] = [
      [{ route: '/v1/chat/completions', status: 200, model: 'm' }, 0.004],
      [{ route: '/v1/chat/completions', status: 200, model: 'm' }, 0.005],
      [{ route: '/v1/chat/completions', status: 200, model: 'm' }, 0.7],
      [{ route: '/v1/chat/completions', status: 500, model: 'm' }, 11],
      [{ route: '/v1/ocr', status: 200, model: 'with "quotes" and \\ and\nnewline' }, 0.05],
      [{ route: '/v1/ocr', status: 200, model: '' }, 0],
    ];
    for (const [labels, value] of observations) {
      theirs.observe(labels, value);
      ours.observe(labels, value);
    }
    const exposed = await fast.metrics();
    expect(exposed).toBe(await reference.metrics());
    expect(exposed).toContain('req_seconds_bucket{le="+Inf",route="/v1/chat/completions",status="200",model="m"} 3');
    expect(exposed).toContain('req_seconds_count{route="/v1/chat/completions",status="500",model="m"} 1');

    ours.reset();
    theirs.reset();
    expect(await fast.metrics()).toBe(await reference.metrics());
  });
});
