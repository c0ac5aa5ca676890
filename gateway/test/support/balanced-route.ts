import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeUpstream } from './fake-upstream.js';
import { ADMIN_KEY } from './start-gateway.js';
import { UPSTREAM_KEY } from './upstream-config.js';

/** The model id of the balanced route `balancedConfig` makes. */
export const BALANCED_MODEL = 'svc-balanced';

/** Deployments on the two providers `balancedConfig` makes, 80/20 by weight. */
export const EIGHTY_TWENTY = [
  { provider: 'east', upstream_model: 'model-east', weight: 80 },
  { provider: 'west', upstream_model: 'model-west', weight: 20 },
];

/** Providers `east` and `west` on two fake upstreams and the chat route `svc-balanced` over them (`deployments` and the rest from `route`). */
export function balancedConfig(
  east: FakeUpstream,
  west: FakeUpstream,
  route: Record<string, unknown>,
): { providers: Record<string, unknown>[]; models: Record<string, unknown>[] } {
  const provider = (id: string, upstream: FakeUpstream) => ({
    id,
    type: 'openai',
    base_url: upstream.url,
    api_key: UPSTREAM_KEY,
    // Long enough that a busy machine does not time a request out and move it to the other deployment.
    timeouts: { connect: 5000, first_byte: 10000, idle: 10000 },
  });
  return {
    providers: [provider('east', east), provider('west', west)],
    models: [
      {
        id: BALANCED_MODEL,
        capabilities: ['chat', 'completions'],
        pricing: { input_per_million: 1, output_per_million: 2 },
        max_retries: 1,
        ...route,
      },
    ],
  };
}

/** `count` chat requests on the balanced route, `parallel` at a time over keep-alive; the statuses that were not 200. */
export async function sendChats(
  url: string,
  count: number,
  parallel = 8,
  extra: () => { headers?: Record<string, string> } = () => ({}),
): Promise<number[]> {
  const failed: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json', ...extra().headers },
        body: JSON.stringify({ model: BALANCED_MODEL, messages: [{ role: 'user', content: 'hi there' }] }),
      });
      await response.arrayBuffer();
      if (response.status !== 200) failed.push(response.status);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return failed;
}

/** The chat requests an upstream received. */
export function chatsOn(upstream: FakeUpstream) {
  return upstream.requests.filter((request) => request.path === '/v1/chat/completions');
}

/** Waits out the last `marginMs` of a clock minute, so counts of rpm (fixed one-minute windows) do not reset mid-test. */
export async function awayFromMinuteEnd(marginMs = 5_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await sleep(left + 50);
}
