import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { SseWriter } from '../../src/streaming/sse-writer.js';

/** A writable whose writes complete only when the test says so, with a one-byte buffer. */
class HeldWritable extends Writable {
  written = '';
  private pending: (() => void)[] = [];
  constructor() {
    super({ highWaterMark: 1, decodeStrings: false });
  }
  override _write(chunk: string, _encoding: BufferEncoding, callback: () => void): void {
    this.written += chunk;
    this.pending.push(callback);
  }
  release(): void {
    for (const callback of this.pending.splice(0)) callback();
  }
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(
  handler: (writer: SseWriter) => Promise<void>,
): Promise<{ url: string; done: Promise<SseWriter> }> {
  let finish: (writer: SseWriter) => void = () => {};
  const done = new Promise<SseWriter>((resolve) => (finish = resolve));
  server = createServer((_req, res) => {
    res.setHeader('x-request-id', 'req-1');
    const writer = new SseWriter(res);
    void handler(writer).then(() => finish(writer));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, done };
}

function get(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => request(url, resolve).on('error', reject).end());
}

async function readText(res: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of res) text += String(chunk);
  return text;
}

describe('SseWriter', () => {
  it('sends SSE headers, data frames and [DONE] over HTTP, keeping headers set earlier', async () => {
    const { url } = await serve(async (writer) => {
      await writer.send({ n: 1 });
      await writer.send({ text: 'two\nlines' });
      await writer.done();
    });
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-request-id']).toBe('req-1');
    expect(await readText(res)).toBe('data: {"n":1}\n\ndata: {"text":"two\\nlines"}\n\ndata: [DONE]\n\n');
  });

  it('ends a failed stream with an error frame, then [DONE]', async () => {
    const { url } = await serve(async (writer) => {
      await writer.send({ n: 1 });
      await writer.fail({ message: 'Upstream went away.', type: 'upstream_error', code: 'upstream_failed' });
    });
    const text = await readText(await get(url));
    expect(text).toBe(
      'data: {"n":1}\n\ndata: {"object":"error","message":"Upstream went away.","type":"upstream_error","param":null,"code":"upstream_failed","error":{"message":"Upstream went away.","type":"upstream_error","param":null,"code":"upstream_failed"}}\n\ndata: [DONE]\n\n',
    );
  });

  it('waits for drain before the next frame', async () => {
    const target = new HeldWritable();
    const writer = new SseWriter(target);
    let sent = false;
    const sending = writer.send({ big: 'x'.repeat(100) }).then((ok) => {
      sent = ok;
    });
    await tick();
    await tick();
    expect(sent).toBe(false);
    target.release();
    await sending;
    expect(sent).toBe(true);
    expect(target.written).toBe(`data: {"big":"${'x'.repeat(100)}"}\n\n`);
  });

  it('notices a client that disconnects: signal aborts, writes report false', async () => {
    const { url, done } = await serve(async (writer) => {
      await writer.send({ n: 1 });
      await new Promise((resolve) => writer.signal.addEventListener('abort', resolve));
      expect(await writer.send({ n: 2 })).toBe(false);
      await writer.done();
    });
    const res = await get(url);
    // Leave as soon as the first frame arrives.
    res.once('data', () => res.destroy());
    const writer = await done;
    expect(writer.closed).toBe(true);
    expect(writer.signal.aborted).toBe(true);
  });

  it('does not report a disconnect after a stream that ended normally', async () => {
    const { url, done } = await serve(async (writer) => {
      await writer.done();
    });
    await readText(await get(url));
    const writer = await done;
    await tick();
    expect(writer.signal.aborted).toBe(false);
  });
});
