import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { KEYLESS_ENTRIES, RequestLog, type RequestLogEntry } from '../../../src/core/request-log/request-log.js';
import { json } from '../../support/start-gateway.js';
import { useGateway } from '../../support/use-resources.js';

/** Sends `count` requests without a valid key on one connection, pipelined, and returns their statuses. */
function refusedOnOneConnection(url: string, count: number, lane: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    let text = '';
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
      if (statuses.length === count) {
        socket.destroy();
        resolve(statuses);
      }
    });
    const requests = Array.from({ length: count }, (_, i) => {
      const key = (lane + i) % 2 ? `Authorization: Bearer sk-sy-wrong-${lane}-${i}\r\n` : '';
      return `GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n${key}\r\n`;
    });
    socket.write(requests.join(''));
  });
}

describe("the request log is the Owner's", () => {
  it('a flood of requests without a valid key evicts no entry of a key; they are counted on /metrics and only the newest are listed', async () => {
    const gateway = await useGateway();
    const real: string[] = [];
    for (let i = 0; i < 3; i++) real.push((await gateway.request('/v1/models')).headers.get('x-request-id')!);

    // 5,600 refused requests (more than the log holds, 500 by default and 5,000 in the measured setup),
    // pipelined on 8 connections: raw bytes cost the test far less than 5,600 fetches.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, lane) => refusedOnOneConnection(gateway.url, 700, lane)),
    );
    expect(answers.flat().filter((status) => status === 401)).toHaveLength(5600);

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
    const refused = (code: string) =>
      Number(
        new RegExp(`switchyard_errors_total\\{error_type="${code}",http_response_status_code="401"\\} (\\d+)`).exec(
          metrics,
        )?.[1],
      );
    expect(refused('missing_api_key') + refused('invalid_api_key')).toBe(5600);
  });

  it('sends no keyless entry to the live feed, whose readers keep a bounded list of their own', () => {
    const log = new RequestLog(10);
    const fed: string[] = [];
    log.subscribe((entry) => fed.push(entry.id));
    const entry = (id: string, keyPrefix: string | null): RequestLogEntry => ({
      id,
      time: Date.now(),
      method: 'GET',
      path: '/v1/models',
      status: keyPrefix ? 200 : 401,
      latency_ms: 1,
      key_prefix: keyPrefix,
      model: null,
      prompt_tokens: null,
      completion_tokens: null,
      cost: null,
      client: null,
    });
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
