import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { validationController } from '../../src/http/validation.js';

let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

async function appWith(routes: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  app = Fastify({ schemaController: validationController() });
  routes(app);
  await app.ready();
  return app;
}

const Count = {
  type: 'object',
  properties: { n: { type: 'integer' } },
  required: ['n'],
  additionalProperties: false,
} as const;

describe('schemas compiled on first use', () => {
  it('validate bodies and query strings and shape answers as schemas compiled at start did', async () => {
    await appWith((app) =>
      app.post(
        '/count',
        { schema: { body: Count, querystring: Count, response: { 200: Count } } },
        async (request) => ({ n: (request.body as { n: number }).n + (request.query as { n: number }).n, extra: 1 }),
      ),
    );
    const post = (url: string, body: unknown) => app!.inject({ method: 'POST', url, payload: body as object });

    const missing = await post('/count?n=1', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe("body must have required property 'n'");
    // A JSON body is not coerced; a query string is.
    expect((await post('/count?n=1', { n: '2' })).json().message).toBe('body/n must be integer');
    expect((await post('/count?n=Infinity', { n: 2 })).json().message).toBe('querystring/n must be a finite number');
    const answer = await post('/count?n=1', { n: 2 });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('{"n":3}');
    expect((await post('/count?n=1', { n: 'x' })).statusCode).toBe(400);
  });

  it('leave a schema the compiler refuses to the first request of its route, which fails alone', async () => {
    // An unknown keyword: Ajv's strict mode refuses it when it compiles.
    const refused = { type: 'object', properties: { n: { type: 'integer', nonsense: true } } };
    await appWith((app) => {
      app.post('/refused', { schema: { body: refused } }, async () => ({ ok: true }));
      app.post('/count', { schema: { body: Count } }, async (request) => request.body);
    });
    expect((await app!.inject({ method: 'POST', url: '/refused', payload: { n: 1 } })).statusCode).toBe(500);
    const counted = await app!.inject({ method: 'POST', url: '/count', payload: { n: 1 } });
    expect(counted.statusCode).toBe(200);
  });
});
