import { Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors/gateway-error.js';

/** Bodies up to this size are not watched (no timer on the common small request); a stalled one holds at most this until the request timeout. */
export const WATCHED_BODY_BYTES = 2 ** 20;

/**
 * A request body over 1 MB (or of unknown length) that sends nothing for `idleMs` is answered 408 and
 * its connection closed, instead of holding what arrived until the request timeout (300 s): forty such
 * bodies stopped at 25 MB held a gigabyte. Multipart uploads are watched by the upload reader, which
 * streams them to disk (api/_shared/read-multipart.ts).
 */
export function registerBodyIdleTimeout(app: FastifyInstance, idleMs: number): void {
  app.addHook('preParsing', (request, reply, payload, done) => {
    const length = request.headers['content-length'];
    const watched =
      length === undefined ? request.headers['transfer-encoding'] !== undefined : Number(length) > WATCHED_BODY_BYTES;
    if (!watched || request.headers['content-type']?.startsWith('multipart/')) return done(null, payload);
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
    done(null, watch);
  });
}
