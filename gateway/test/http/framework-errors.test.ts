import Fastify, { type FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../src/http/error-handler.js';
import { frameworkErrorHandler } from '../../src/http/framework-errors.js';
import { clientRequestId, registerRequestContext } from '../../src/http/request-context.js';
import { json } from '../support/start-gateway.js';
import { closeAfterTest } from '../support/use-resources.js';

// The router's own refusals happen before any hook; this checks the handler the gateway hands
// Fastify as `frameworkErrors`, on an instance with just the gateway's header and error plugins.
let app: FastifyInstance;
let url: string;
beforeEach(async () => {
  app = closeAfterTest(
    Fastify({
      frameworkErrors: frameworkErrorHandler,
      genReqId: (request) => clientRequestId(request.headers['x-request-id']) ?? 'generated',
    }),
  );
  registerRequestContext(app);
  registerErrorHandler(app);
  app.get('/v1/files/:file_id', async (request) => request.params);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

describe('frameworkErrorHandler', () => {
  it.each([
    ['a broken percent-encoding', '/v1/files/%ZZ', 400, 'invalid_path'],
    ['an over-long path parameter', `/v1/files/${'x'.repeat(4000)}`, 414, 'path_parameter_too_long'],
  ])('answers %s in the error shape with the common headers', async (_label, path, status, code) => {
    const response = await fetch(url + path, { headers: { 'x-request-id': 'trace-1' } });
    expect(response.status).toBe(status);
    const details = { message: expect.stringMatching(/^.{10,}$/), type: 'invalid_request_error', param: null, code };
    expect(await json(response)).toEqual({ object: 'error', ...details, error: details });
    expect(response.headers.get('x-request-id')).toBe('trace-1');
    expect(Number(response.headers.get('x-process-time-ms'))).toBeGreaterThanOrEqual(0);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });
});
