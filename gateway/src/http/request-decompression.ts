import { Transform, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors/gateway-error.js';
import { megabytes } from '../core/errors/megabytes.js';

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

/**
 * Inflates compressed request bodies (Content-Encoding gzip, deflate, br, zstd) as they arrive, and
 * stops at `inflatedLimitBytes` of output with a 413 that states the limit: a 46 KB gzip that
 * inflates to 45 MB costs at most the limit, not 45 MB of buffers and a 45 MB JSON string. The cap is
 * far below the body limit because a compressed body's size says nothing about its cost.
 */
export function registerRequestDecompression(app: FastifyInstance, inflatedLimitBytes: number): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const header = request.headers['content-encoding'];
    if (header === undefined) return done(null, payload);
    const encoding = header.trim().toLowerCase();
    if (encoding === 'identity' || encoding === '') return done(null, payload);
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
    const limit = Math.min(inflatedLimitBytes, request.routeOptions.bodyLimit ?? inflatedLimitBytes);
    done(null, inflateCapped(payload, decoder(), limit));
  });
}

function inflateCapped(source: Readable, inflate: Transform, limitBytes: number): InflatedBody {
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
