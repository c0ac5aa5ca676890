import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createMemberKey, startLatencyProbe } from '../support/latency-probe.js';
import type { TestGateway } from '../support/start-gateway.js';
import { useGateway } from '../support/use-resources.js';

const MEGABYTE = Buffer.alloc(2 ** 20, 'a');

/** Sends the start of a 40 MB JSON body, `megabytes` MB of it, then nothing more; resolves with what the gateway answered once it closes the connection. */
async function stalledJson(
  gateway: TestGateway,
  key: string,
  megabytes: number,
): Promise<{ text: string; closedAfterMs: number }> {
  const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
  socket.on('error', () => undefined);
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${40 * 2 ** 20}\r\n\r\n{"model":"svc-large-3","messages":[{"role":"user","content":"`,
  );
  for (let i = 0; i < megabytes; i++)
    if (!socket.write(MEGABYTE)) await new Promise((resolve) => socket.once('drain', resolve));
  const stalledAt = performance.now();
  await closed;
  return { text: Buffer.concat(received).toString(), closedAfterMs: performance.now() - stalledAt };
}

describe('stalled request bodies', () => {
  // First in its file: the probe reports the growth of the process's peak RSS.
  it('20 JSON bodies that stop after 10 MB each are answered 408 after the idle timeout, not held until the request timeout', async () => {
    const gateway = await useGateway({
      config: { server: { body_idle_timeout_ms: 1000, headers_timeout_ms: 5000, request_timeout_ms: 20_000 } },
    });
    const attacker = await createMemberKey(gateway, 'attacker');
    const probe = startLatencyProbe(gateway, await createMemberKey(gateway));
    const answers = await Promise.all(Array.from({ length: 20 }, () => stalledJson(gateway, attacker, 10)));
    const report = await probe.stop();
    for (const { text, closedAfterMs } of answers) {
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(text).toMatch(/\r\nx-request-id: req_/i);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({
        object: 'error',
        code: 'body_stalled',
      });
      // The idle timeout, not the 20 s request timeout (nor the 300 s default).
      expect(closedAfterMs).toBeLessThan(5000);
    }
    expect(report.worstMs).toBeLessThan(2000);
    // A JSON body is parsed whole, so what arrived is in memory either way (peak +206 MB here, +225 MB
    // before); what changed is how long: released a second after the stall, not at the request timeout
    // (20 s here, 300 s by default), which is what let 40 stalled bodies hold a gigabyte for minutes.
    expect(report.peakRssGrowthMiB).toBeLessThan(400);
  });
});
