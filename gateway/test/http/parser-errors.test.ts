import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, startGateway, type TestGateway } from '../support/start-gateway.js';

// What Node's HTTP parser refuses never reaches a route: these tests speak raw bytes over a socket.
let gateway: TestGateway;
let port: number;

beforeAll(async () => {
  gateway = await startGateway({ config: { server: { headers_timeout_ms: 400, request_timeout_ms: 1200 } } });
  port = Number(new URL(gateway.url).port);
});
afterAll(async () => gateway.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The gateway closed the connection. */
  closed: boolean;
}

/** Sends `chunks` (then waits `holdMs` without closing) and reads until the gateway closes the socket. */
function exchange(chunks: (string | Buffer)[], deadlineMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the gateway kept the connection open for ${deadlineMs} ms`));
    }, deadlineMs);
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    socket.on('data', (data) => received.push(data));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(deadline);
      const text = Buffer.concat(received).toString('latin1');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      let body: unknown = rest.join('\r\n\r\n');
      try {
        body = JSON.parse(body as string);
      } catch {
        // left as text, so the assertion shows it
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, closed: true });
    });
  });
}

function expectErrorShape(answer: RawAnswer, status: number, code: string) {
  expect(answer).toMatchObject({
    status,
    closed: true,
    body: { object: 'error', type: expect.any(String), param: null, code, message: expect.stringMatching(/.{20,}/) },
  });
  expect(answer.headers['x-request-id']).toMatch(/^req_/);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers.connection).toBe('close');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(answer.body)));
}

describe('errors before routing are answered in the error shape, with X-Request-ID', () => {
  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n'],
    ['a request line with a space in the target', 'GET /v1/models extra HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['an unknown HTTP version', 'GET /status HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n'],
    ['a control character in a header value', 'GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trace: a\x01b\r\n\r\n'],
    ['a space in a header name', 'GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n'],
    ['a header line without a colon', 'GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nnocolon\r\n\r\n'],
    [
      'Content-Length and Transfer-Encoding together',
      'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    [
      'a negative Content-Length',
      'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n',
    ],
    // With a valid key, so the framing error is what answers (a request without one may be refused first).
    [
      'a broken chunk size',
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    ],
    ['a NUL in a header value', 'GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trace: a\x00b\r\n\r\n'],
    ['a NUL in the path', 'GET /sta\x00tus HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['a bare LF ending the request line', 'GET /status HTTP/1.1\nHost: 127.0.0.1\n\n'],
    ['an obsolete folded header line', 'GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\r\n b\r\n\r\n'],
    ['a lower-case method', 'get /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['an unknown method', 'FOO /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['an HTTP/2 preface on the HTTP/1 port', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    [
      'two Content-Length headers',
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    ],
    [
      'a Content-Length that is not a number',
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Length: abc\r\n\r\n{}`,
    ],
    [
      'a Content-Length past any integer',
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Length: 99999999999999999999999\r\n\r\n{}`,
    ],
    [
      'a broken chunk size without a key',
      'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    ],
    [
      'a chunk without its CRLF',
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n`,
    ],
    [
      'a Transfer-Encoding other than chunked',
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nTransfer-Encoding: gzip\r\n\r\n{}`,
    ],
    ['a header name with a separator', 'GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX(A): 1\r\n\r\n'],
    [
      'a garbage request after a good one on the same connection',
      'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGARBAGE\r\n\r\n',
    ],
    // Node accepts these and answered a bare 400 (no Host) or served them (two Hosts).
    ['an HTTP/1.1 request without Host', 'GET /status HTTP/1.1\r\nConnection: close\r\n\r\n'],
    ['two Host headers', 'GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n'],
  ])('400 malformed_request for %s', async (_label, raw) => {
    expectErrorShape(await exchange([raw]), 400, 'malformed_request');
  });

  it('505 for an HTTP version other than 1.x that the parser lets through', async () => {
    expectErrorShape(
      await exchange(['GET /status HTTP/2.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n']),
      505,
      'http_version_not_supported',
    );
  });

  it('417 for an Expect other than 100-continue (Node answered a bare 417)', async () => {
    const answer = await exchange([
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nExpect: banana\r\nContent-Length: 2\r\n\r\n{}`,
    ]);
    expectErrorShape(answer, 417, 'expectation_failed');
  });

  it('405 for CONNECT (Node closed the connection without a word)', async () => {
    expectErrorShape(
      await exchange(['CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n']),
      405,
      'method_not_allowed',
    );
  });

  it('431 headers_too_large for headers past the limit', async () => {
    const answer = await exchange([`GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    expectErrorShape(answer, 431, 'headers_too_large');
    expect(answer.body).toMatchObject({ type: 'invalid_request_error' });
  });

  it('a client that sends its headers slowly is answered 408 and disconnected after server.headers_timeout_ms', async () => {
    const answer = await exchange(['GET /status HTTP/1.1\r\n', 'Host: 127.0.0.1\r\n', 'X-Slow: 1\r\n']);
    expectErrorShape(answer, 408, 'request_timeout');
  });

  it('a client that never finishes its body is disconnected after server.request_timeout_ms', async () => {
    const answer = await exchange([
      `POST /v1/embeddings HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"model":`,
    ]);
    expectErrorShape(answer, 408, 'request_timeout');
  });

  it('a well-formed request on the same gateway is unaffected', async () => {
    const answer = await exchange(['GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n']);
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.headers['x-request-id']).toBeTruthy();
  });
});
