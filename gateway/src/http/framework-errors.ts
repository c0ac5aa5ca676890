import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors/gateway-error.js';
import { finishCommonHeaders, newRequestId, SECURITY_HEADERS, startCommonHeaders } from './request-context.js';

/** What the router refuses before any hook runs, in the gateway's words. */
function fromRouterError(error: FastifyError, path: string): GatewayError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new GatewayError(
        400,
        'invalid_path',
        `The path ${path} holds an invalid percent-encoding; encode path parameters with encodeURIComponent.`,
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new GatewayError(
        414,
        'path_parameter_too_long',
        'A path parameter is longer than the gateway accepts; ids and model names are far shorter. Check the URL.',
      );
    default:
      return new GatewayError(400, 'invalid_request', `The request could not be routed: ${error.message}`);
  }
}

/**
 * Fastify's `frameworkErrors` option: the router answers bad percent-encoding and over-long path
 * parameters itself, before the onRequest hooks, with a body of its own and none of the common
 * headers. This gives those answers the error shape and the headers every response carries.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  startCommonHeaders(request, reply);
  const path = request.url.split('?')[0];
  const mapped = fromRouterError(error, path.length > 200 ? `${path.slice(0, 200)}…` : path);
  reply.status(mapped.status);
  finishCommonHeaders(request, reply);
  void reply.send(mapped.toBody());
}

/** What Node's HTTP parser refused, in the gateway's words. */
function fromParserError(error: NodeJS.ErrnoException & { reason?: string }): GatewayError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new GatewayError(
        431,
        'headers_too_large',
        'The request line and headers are larger than the gateway accepts (16 KB); send fewer or shorter headers.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new GatewayError(
        408,
        'request_timeout',
        'The request did not arrive in time (server.headers_timeout_ms for the headers, server.request_timeout_ms for the whole request); the connection is closed.',
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new GatewayError(
        413,
        'chunk_extensions_too_large',
        'The chunk extensions of the body are larger than the gateway accepts.',
      );
    default: {
      const reason =
        typeof error.reason === 'string' && /^[\x20-\x7e]{1,200}$/.test(error.reason)
          ? error.reason
          : 'malformed request';
      return new GatewayError(
        400,
        'malformed_request',
        `The request is not valid HTTP/1.1 (${reason}); the connection is closed.`,
      );
    }
  }
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refuses a malformed request line, bad header
 * characters, oversized headers or a request that arrives too slowly before any route or hook
 * exists. The answer still has the error shape, a fresh X-Request-ID and the security headers; the
 * connection is then closed (the parser cannot find the next request on it).
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const response = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !response?.headersSent) {
    writeRawError(socket, fromParserError(error));
    return;
  }
  socket.destroy();
}

/** An error answer written on the socket itself, where no request or reply object exists; the connection is then closed. */
function writeRawError(socket: Duplex, error: GatewayError): void {
  const { headers, body } = rawError(error);
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n${head}\r\n${body}`, () =>
    socket.destroy(),
  );
}

function rawError(error: GatewayError): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify(error.toBody());
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-ID': newRequestId(),
    ...SECURITY_HEADERS,
    'Cache-Control': 'no-store',
    Connection: 'close',
  };
  return { headers, body };
}

/**
 * What Node's HTTP server answers itself, before Fastify sees a request, answered in the error shape
 * instead: an `Expect` other than 100-continue (Node: a bare 417) and CONNECT (Node: the socket
 * destroyed without a word). A missing or repeated Host and an HTTP version other than 1.x are
 * refused by `registerRequestFraming` (request-framing.ts).
 */
export function answerUnservedRequests(server: Server): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const expectation = String(request.headers.expect).slice(0, 100);
    const { headers, body } = rawError(
      new GatewayError(
        417,
        'expectation_failed',
        `The gateway only understands Expect: 100-continue, not "${expectation}"; send the request without that header.`,
      ),
    );
    response.writeHead(417, headers).end(body);
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => undefined);
    writeRawError(
      socket,
      new GatewayError(
        405,
        'method_not_allowed',
        'CONNECT is not served: the gateway is not a proxy. Send the request to the gateway itself (GET, POST, DELETE...).',
      ),
    );
  });
}
