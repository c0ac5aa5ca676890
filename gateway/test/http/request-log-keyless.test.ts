import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { KEYLESS_ENTRIES, RequestLog, type RequestLogEntry } from '../../src/core/request-log/request-log.js';
import { json } from '../support/start-gateway.js';
import { useGateway } from '../support/use-resources.js';

describe('the request log is the Owner\'s', () => {
  it('a flood of requests without a valid key evicts no entry of a key; they are counted on /metrics and only the newest are listed', async () => {
    const gateway = await useGateway();
    const real: string[] = [];
    for (let i = 0; i < 3; i++) real.push((await gateway.request('/v1/models')).headers.get('x-request-id')!);

    // 5,600 refused requests (more than the log holds, 500 by default and 5,000 in the measured setup), 16 at a time over kept-alive connections.
    const dispatcher = new Agent({ connections: 16 });
    let sent = 0;
    await Promise.all(
      Array.from({ length: 16 }, async (_, lane) => {
        for (let i = lane; i < 5600; i += 16) {
          const headers: Record<string, string> = i % 2 ? { authorization: `Bearer sk-sy-wrong-${i}` } : {};
          const answer = await fetch(`${gateway.url}/v1/models`, { headers, dispatcher } as RequestInit);
          expect(answer.status).toBe(401);
          await answer.arrayBuffer();
          sent++;
        }
      }),
    );
    await dispatcher.close();
    expect(sent).toBe(5600);

    const log = await json(await gateway.request('/console/requests?limit=500'));
    const ids = log.data.map((entry: { id: string }) => entry.id);
    for (const id of real) expect(ids).toContain(id);
    const keyless = log.data.filter((entry: { key_prefix: string | null }) => entry.key_prefix === null);
    expect(keyless.length).toBe(KEYLESS_ENTRIES);
    expect(keyless[0].status).toBe(401);
    // Newest first across both: the refused requests came last.
    expect(log.data[0].key_prefix).toBeNull();
    expect((await gateway.request(`/console/requests/${real[0]}`)).status).toBe(200);

    const metrics = await (await gateway.request('/metrics')).text();
    const refused = (code: string) => Number(new RegExp(`switchyard_errors_total\\{error_type="${code}",http_response_status_code="401"\\} (\\d+)`).exec(metrics)?.[1]);
    expect(refused('missing_api_key') + refused('invalid_api_key')).toBe(5600);
  });

  it('sends no keyless entry to the live feed, whose readers keep a bounded list of their own', () => {
    const log = new RequestLog(10);
    const fed: string[] = [];
    log.subscribe((entry) => fed.push(entry.id));
    const entry = (id: string, keyPrefix: string | null): RequestLogEntry => ({ id, time: Date.now(), method: 'GET', path: '/v1/models', status: keyPrefix ? 200 : 401, latency_ms: 1, key_prefix: keyPrefix, model: null, prompt_tokens: null, completion_tokens: null, cost: null, client: null });
    log.add(entry('kept', 'sk-sy-abcd…'));
    for (let i = 0; i < 50; i++) log.addKeyless(entry(`anonymous-${i}`, null));
    expect(fed).toEqual(['kept']);
    expect(log.recent(200).map((e) => e.id)).toContain('kept');
    expect(log.get('anonymous-49')?.status).toBe(401);
  });

  it('keeps the entries of keys across a restart: refused requests are not stored', async () => {
    const gateway = await useGateway({ config: { server: { request_log_size: 50 } } });
    const kept = (await gateway.request('/v1/models')).headers.get('x-request-id')!;
    for (let i = 0; i < 120; i++) await (await gateway.request('/v1/models', { key: null })).arrayBuffer();
    const { dataDir } = gateway;
    await gateway.stop();
    const again = await useGateway({ dataDir, config: { server: { request_log_size: 50 } } });
    const log = await json(await again.request('/console/requests?limit=500'));
    expect(log.data.map((entry: { id: string }) => entry.id)).toContain(kept);
    expect(log.data.every((entry: { key_prefix: string | null }) => entry.key_prefix !== null)).toBe(true);
  });
});
