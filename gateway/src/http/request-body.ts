import { Transform, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors/gateway-error.js';
import { megabytes } from '../core/errors/megabytes.js';

/** Bodies up to this size are not watched (no timer on the common small request); a stalled one holds at most this until the request timeout. */
export const WATCHED_BODY_BYTES = 2 ** 20;

/** The request encodings the gateway inflates (what @fastify/compress accepted before). */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
  zstd: () => createZstdDecompress(),
};

/** What Fastify's body reader looks for on a preParsing stream: the bytes that arrived, to check Content-Length against. */
type InflatedBody = Transform & { receivedEncodedLength: number };

const NOT_SPACE = /\S/;

export interface RequestBodyLimits {
  /** The most a compressed body may inflate to (server.inflated_body_limit_mb). */
  inflatedLimitBytes: number;
  /** How long a large body may send nothing (server.body_idle_timeout_ms). */
  idleMs: number;
}

/**
 * How a request body is read. Every body is JSON or multipart; anything else is answered with 415.
 * An empty JSON body (SDKs send one with POST .../cancel and .../archive) counts as no body, and a
 * JSON body's text is kept for the request log. On its way in, a body over 1 MB is watched for
 * stalls and a compressed one is inflated (`watchedForStalls`, `inflatedCapped`); the common small,
 * uncompressed body passes as it came.
 */
export function registerRequestBody(app: FastifyInstance, limits: RequestBodyLimits): void {
  app.removeContentTypeParser(['text/plain', 'application/json']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.decorateRequest('jsonText', null);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // A test for a non-space character stops at the first one; trim() copied every body.
    if (typeof body !== 'string' || !NOT_SPACE.test(body)) return done(null, undefined);
    request.jsonText = body;
    return parseJson(request, body, done);
  });

  app.addHook('preParsing', (request, reply, payload, done) => {
    const { headers } = request;
    const length = headers['content-length'];
    const large =
      length === undefined ? headers['transfer-encoding'] !== undefined : Number(length) > WATCHED_BODY_BYTES;
    const arriving = large ? watchedForStalls(payload, request, reply, limits.idleMs) : payload;
    const encoding = headers['content-encoding']?.trim().toLowerCase();
    if (encoding === undefined || encoding === 'identity' || encoding === '') return done(null, arriving);
    const decoder = DECODERS[encoding];
    if (!decoder) {
      return done(
        new GatewayError(
          415,
          'unsupported_content_encoding',
          `The request's Content-Encoding "${encoding.slice(0, 40)}" is not supported; send the body uncompressed or as ${Object.keys(DECODERS).join(', ')}.`,
        ),
      );
    }
    const limit = Math.min(limits.inflatedLimitBytes, request.routeOptions.bodyLimit ?? limits.inflatedLimitBytes);
    done(null, inflatedCapped(arriving, decoder(), limit));
  });
}

/**
 * A request body over 1 MB (or of unknown length) that sends nothing for `idleMs` is answered 408 and
 * its connection closed, instead of holding what arrived until the request timeout (300 s): forty such
 * bodies stopped at 25 MB held a gigabyte. Multipart uploads are watched by the upload reader, which
 * streams them to disk (api/_shared/read-multipart.ts).
 */
function watchedForStalls(payload: Readable, request: FastifyRequest, reply: FastifyReply, idleMs: number): Readable {
  if (request.headers['content-type']?.startsWith('multipart/')) return payload;
  const stalled = new GatewayError(
    408,
    'body_stalled',
    `The request body sent nothing for ${Math.round(idleMs / 100) / 10} s (server.body_idle_timeout_ms); the connection is closed. Send the request again.`,
  );
  const watch = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      timer.refresh();
      callback(null, chunk);
    },
  });
  const timer = setTimeout(() => {
    reply.header('Connection', 'close');
    watch.destroy(stalled);
  }, idleMs);
  // Whichever comes first: the body read to its end, the watch destroyed, or the answer gone (a refusal before the end).
  const stop = () => clearTimeout(timer);
  watch.once('end', stop).once('close', stop);
  reply.raw.once('close', stop);
  // Once the answer has left nobody reads the watch: a client that then resets must not throw.
  payload.on('error', (error) => watch.destroy(reply.sent ? undefined : error));
  payload.pipe(watch);
  return watch;
}

/**
 * Inflates a compressed request body (Content-Encoding gzip, deflate, br, zstd) as it arrives, and
 * stops at `limitBytes` of output with a 413 that states the limit: a 46 KB gzip that inflates to
 * 45 MB costs at most the limit, not 45 MB of buffers and a 45 MB JSON string. The cap is far below
 * the body limit because a compressed body's size says nothing about its cost.
 */
function inflatedCapped(source: Readable, inflate: Transform, limitBytes: number): InflatedBody {
  let inflated = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      inflated += chunk.length;
      if (inflated <= limitBytes) return callback(null, chunk);
      callback(
        new GatewayError(
          413,
          'inflated_body_too_large',
          `The request body inflates to more than ${megabytes(limitBytes)}, the most the gateway inflates (server.inflated_body_limit_mb); send a smaller body, or send it uncompressed (up to server.body_limit_mb).`,
        ),
      );
    },
  }) as InflatedBody;
  capped.receivedEncodedLength = 0;
  source.on('data', (chunk: Buffer) => {
    capped.receivedEncodedLength += chunk.length;
  });
  inflate.on('error', () =>
    capped.destroy(
      new GatewayError(
        400,
        'invalid_compressed_body',
        'The request body could not be inflated: it is not valid data for its Content-Encoding.',
      ),
    ),
  );
  source.on('error', (error) => capped.destroy(error));
  // Whatever ends it (the cap, bad data, the client leaving), the decoder's buffers go at once.
  capped.on('close', () => {
    source.unpipe(inflate);
    inflate.destroy();
  });
  source.pipe(inflate).pipe(capped);
  return capped;
}
