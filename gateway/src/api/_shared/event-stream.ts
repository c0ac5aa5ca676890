import type { FastifyReply, FastifyRequest } from 'fastify';
import { toGatewayError } from '../../core/errors/provider-error-mapping.js';
import { CoalescedFrames } from '../../streaming/coalesced-frames.js';
import { CollectedFrames } from '../../streaming/collected-frames.js';
import { SSE_HEADERS, SseWriter, type SseErrorFrame } from '../../streaming/sse-writer.js';

/** How a stream ends: by default `[DONE]` last, and an error frame before it when producing fails. */
export interface StreamEnding {
  done(writer: SseWriter): Promise<void>;
  fail(writer: SseWriter, error: SseErrorFrame): Promise<void>;
}

const DONE_ENDING: StreamEnding = { done: (writer) => writer.done(), fail: (writer, error) => writer.fail(error) };

/**
 * Frames that carry no content: the events that open a Responses or conversation stream before the
 * model has said anything, and the error frames of a stream that failed. The first token is the
 * first frame that is none of these.
 */
const NOT_CONTENT =
  /^(?:event: (?:response\.created|response\.in_progress|conversation\.response\.started|conversation\.response\.error)\n|data: \{"object":"error")/;

/** A stream's first and last token, as events of the request's GenAI span (or its server span): the waterfall draws them. */
function markOnTrace(request: FastifyRequest, name: 'first token' | 'last token'): void {
  const span = request.traceSpan;
  (span?.trace.operation ?? span)?.event(name);
}

/** Marks the request's first content frame (its time to first token): the callback the stream's body shows each frame. */
function firstContentMark(request: FastifyRequest): (frame: string) => boolean {
  return (frame) => {
    if (NOT_CONTENT.test(frame)) return false;
    request.firstTokenAt = process.hrtime.bigint();
    markOnTrace(request, 'first token');
    return true;
  };
}

/**
 * Starts a server-sent-event response through Fastify (so the usual hooks, the usage ledger and
 * the request log see it), runs `produce` to write frames, records the request (its ledger entry
 * committed) and ends with `[DONE]`, or with an error frame and `[DONE]` when producing fails after
 * the stream started (recorded when the response ends).
 */
export function sendEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  providerId: string,
  produce: (writer: SseWriter) => Promise<void>,
  ending: StreamEnding = DONE_ENDING,
): FastifyReply {
  const body = new CoalescedFrames(reply.raw.socket, firstContentMark(request));
  const writer = new SseWriter(body);
  // Fastify destroys a body it pipes when the response closes. One it never pipes (an onSend hook
  // failed, and an error answer went out instead) is destroyed here, so the producer stops rather
  // than wait for a reader that never comes, holding its upstream request open.
  reply.raw.once('close', () => body.destroy());
  reply.headers(SSE_HEADERS);
  void (async () => {
    try {
      await produce(writer);
      if (request.firstTokenAt !== null) markOnTrace(request, 'last token');
      body.holdForEnd();
      // The usage is committed before the last frame: a client that has read it finds the request billed.
      await request.server.recordStreamEnd(request, reply.statusCode);
      await ending.done(writer);
    } catch (error) {
      if (writer.closed) return;
      const mapped = toGatewayError(error, providerId);
      request.log.warn({ code: mapped.code, msg: mapped.message }, 'stream failed after it started');
      request.server.recordStreamFailure(request, { code: mapped.code, message: mapped.message });
      await ending.fail(writer, { message: mapped.message, type: mapped.type, code: mapped.code, param: mapped.param });
    }
  })();
  return reply.send(body);
}

/**
 * An event stream whose events are all at hand (a cache hit's replay): `produce` writes the same
 * frames as for `sendEventStream`, `[DONE]` last, gathered and sent as one body in one write, billed
 * and logged as the response is sent, as a JSON answer is. Failing before anything was sent, it
 * answers with the usual error instead of an error frame.
 */
export async function sendWholeEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  produce: (writer: SseWriter) => Promise<void>,
): Promise<FastifyReply> {
  const body = new CollectedFrames(firstContentMark(request));
  const writer = new SseWriter(body);
  await produce(writer);
  await writer.done();
  if (request.firstTokenAt !== null) markOnTrace(request, 'last token');
  return reply.headers(SSE_HEADERS).send(body.text);
}
