import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { sendEventStream } from '../../../src/api/_shared/event-stream.js';

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

describe('an event stream Fastify never sends', () => {
  it('stops its producer when an onSend hook fails and an error answer goes out instead', async () => {
    const app = Fastify();
    apps.push(app);
    app.decorate('recordStreamEnd', async () => undefined);
    app.addHook('onSend', async (_request, reply, payload) => {
      if (String(reply.getHeader('content-type')).startsWith('text/event-stream'))
        throw new Error('an onSend hook failed');
      return payload;
    });
    let producerEnded!: (how: string) => void;
    const produced = new Promise<string>((resolve) => (producerEnded = resolve));
    app.get('/stream', (request, reply) =>
      sendEventStream(request, reply, 'test', async (writer) => {
        // One frame per turn, as upstream chunks come, more than the body buffers: without a reader,
        // the writer is soon told to wait for 'drain'.
        for (let n = 0; n < 1000 && !writer.closed; n++) {
          if (!writer.queueJsonText(JSON.stringify({ n, text: 'x'.repeat(1000) })) && !(await writer.drained())) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        producerEnded(writer.closed ? 'stopped' : 'wrote everything');
      }),
    );
    const url = await app.listen({ host: '127.0.0.1', port: 0 });

    const response = await fetch(`${url}/stream`);
    expect(response.status).toBe(500);
    await response.text();
    const hung = new Promise<string>((resolve) =>
      setTimeout(() => resolve('still waiting for a reader'), 2000).unref(),
    );
    expect(await Promise.race([produced, hung])).toBe('stopped');
  });
});
