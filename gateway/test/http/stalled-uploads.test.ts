import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createMemberKey, startLatencyProbe } from '../support/latency-probe.js';
import { BOUNDARY, multipartType } from '../support/multipart-body.js';
import { json, type TestGateway } from '../support/start-gateway.js';
import { useGateway } from '../support/use-resources.js';

const MEGABYTE = Buffer.alloc(2 ** 20, 'x');

interface StalledUpload {
  socket: Socket;
  /** Everything the gateway answered, once it closed the connection. */
  answer: Promise<{ text: string; closedAfterMs: number }>;
  /** Resolves once `megabytes` of the file have been written. */
  sent: Promise<void>;
}

/** Starts a multipart upload of a much larger file to `path`, sends `megabytes` MB of it, then sends nothing more. */
function stallAfter(gateway: TestGateway, key: string, megabytes: number, path = '/v1/files'): StalledUpload {
  const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
  socket.on('error', () => undefined);
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  let stalledAt = 0;
  const answer = new Promise<{ text: string; closedAfterMs: number }>((resolve) => {
    socket.on('close', () =>
      resolve({ text: Buffer.concat(received).toString(), closedAfterMs: performance.now() - stalledAt }),
    );
  });
  const sent = (async () => {
    await new Promise((resolve) => socket.once('connect', resolve));
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${multipartType()}\r\nContent-Length: ${200 * 2 ** 20}\r\n\r\n${head}`,
    );
    for (let i = 0; i < megabytes; i++) {
      if (!socket.write(MEGABYTE)) await new Promise((resolve) => socket.once('drain', resolve));
    }
    stalledAt = performance.now();
  })();
  return { socket, answer, sent };
}

function partialFiles(gateway: TestGateway): string[] {
  return readdirSync(join(gateway.dataDir, 'files')).filter((name) => name.includes('.partial'));
}

describe('stalled and aborted uploads', () => {
  // First in its file: the probe reports the growth of the process's peak RSS.
  it('20 uploads that stop after 10 MB each are answered 408 after the idle timeout, hold no memory and leave no file behind', async () => {
    // All 20 from one key: its per-key upload limit (4 by default) is raised so every one reaches the body reader.
    const gateway = await useGateway({
      config: {
        server: {
          body_idle_timeout_ms: 1000,
          headers_timeout_ms: 5000,
          request_timeout_ms: 20_000,
          upload_concurrency_per_key: 20,
        },
      },
    });
    const attacker = await createMemberKey(gateway, 'attacker');
    const probe = startLatencyProbe(gateway, await createMemberKey(gateway));
    const uploads = Array.from({ length: 20 }, () => stallAfter(gateway, attacker, 10));
    await Promise.all(uploads.map((upload) => upload.sent));
    const answers = await Promise.all(uploads.map((upload) => upload.answer));
    const report = await probe.stop();

    for (const { text, closedAfterMs } of answers) {
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(text).toMatch(/\r\nx-request-id: req_/i);
      expect(text).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({
        object: 'error',
        code: 'upload_stalled',
        param: null,
      });
      // The idle timeout, not the 20 s request timeout (nor the 300 s default).
      expect(closedAfterMs).toBeLessThan(5000);
    }
    expect(partialFiles(gateway)).toEqual([]);
    // Before: every byte of every stalled upload was held in memory until the request timeout (here
    // peak RSS +223 MB, answered after the 20 s request timeout); with streaming to disk about +94 MB
    // of passing buffers, answered after the 1 s idle timeout.
    expect(report.peakRssGrowthMiB).toBeLessThan(150);
    expect(report.worstMs).toBeLessThan(1500);
    // The gateway still takes a whole upload.
    const form = new FormData();
    form.append('purpose', 'user_data');
    form.append('file', new Blob([Buffer.alloc(3 * 2 ** 20, 'y')]), 'whole.bin');
    const kept = await gateway.request('/v1/files', { method: 'POST', body: form });
    expect(kept.status).toBe(200);
    const record = await json(kept);
    expect(record.bytes).toBe(3 * 2 ** 20);
    expect(
      Buffer.from(await (await gateway.request(`/v1/files/${record.id}/content`)).arrayBuffer()).equals(
        Buffer.alloc(3 * 2 ** 20, 'y'),
      ),
    ).toBe(true);
    expect(partialFiles(gateway)).toEqual([]);
  });

  it('an upload or a JSON body whose client leaves half-way is cleaned up and logs no "database unavailable"', async () => {
    const gateway = await useGateway({ config: { server: { body_idle_timeout_ms: 10_000 } } });
    const key = await createMemberKey(gateway);
    const { outages } = gateway.control;
    const refusedRequest = vi.spyOn(outages, 'refusedRequest');
    const refused = vi.spyOn(outages, 'refused');
    for (const path of ['/v1/files', '/v1/ocr', '/transcript']) {
      const upload = stallAfter(gateway, key, 3, path);
      await upload.sent;
      await new Promise((resolve) => setTimeout(resolve, 100));
      upload.socket.destroy();
      await upload.answer;
    }
    // A JSON body whose client leaves half-way fails on the same ECONNRESET.
    const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"model":"svc-large-3","messages":[`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await expect.poll(() => partialFiles(gateway), { timeout: 2000 }).toEqual([]);
    // Give the error path its turn, then check nothing took the client's ECONNRESET for the database's.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(refusedRequest.mock.calls.filter(([code]) => code === 'database_unavailable')).toEqual([]);
    expect(refused).not.toHaveBeenCalled();
    expect((await gateway.request('/health/readiness', { key: null })).status).toBe(200);
  });

  it('a file past the body limit is refused with 413 stating the limit while it streams, and its connection closed', async () => {
    const gateway = await useGateway({ config: { server: { body_limit_mb: 2 } } });
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(3 * 2 ** 20, 'z')]), 'big.bin');
    const answer = await gateway.request('/v1/files', { method: 'POST', body: form });
    expect(answer.status).toBe(413);
    const body = await json(answer);
    expect(body.message).toContain('2 MB');
    expect(partialFiles(gateway)).toEqual([]);
  });

  it('text fields past 2 MB together are refused with 413 (each is held in memory until the file)', async () => {
    const gateway = await useGateway();
    const form = new FormData();
    for (let i = 0; i < 3; i++) form.append(`field${i}`, 'f'.repeat(900_000));
    form.append('file', new Blob(['content']), 'small.txt');
    const answer = await gateway.request('/v1/files', { method: 'POST', body: form });
    expect(answer.status).toBe(413);
    expect(await json(answer)).toMatchObject({ code: 'fields_too_large', param: 'field2' });
  });
});
