import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import type { FileStore, ReceivedFile } from '../../core/files/file-store.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { megabytes } from '../../core/errors/megabytes.js';

/**
 * The text fields of one upload together (each is at most 1 MB, index.ts): the parser holds them in
 * memory, so a connection that stalls after many of them holds no more than this.
 */
export const MAX_FIELD_BYTES = 2 * 2 ** 20;

export interface UploadedFile extends ReceivedFile {
  filename: string;
  mimeType: string;
  field: string;
}

/** Where an upload's file is received and the limits it is read under (server.body_limit_mb, server.body_idle_timeout_ms). */
export interface UploadIntake {
  files: Pick<FileStore, 'receive'>;
  maxBytes: number;
  idleTimeoutMs: number;
}

export interface MultipartUpload {
  fields: Record<string, string>;
  file?: UploadedFile;
}

/**
 * Reads a multipart/form-data body: its text fields, and at most one file, streamed to a temporary
 * file as it arrives (never held whole in memory) and removed once the answer has left unless the
 * route kept it. An upload that sends nothing for server.body_idle_timeout_ms is answered 408; an
 * answer sent before the body has arrived (a refusal, a stall) closes the connection, so the rest of
 * the body is neither read nor waited for.
 */
export async function readMultipart(
  request: FastifyRequest,
  reply: FastifyReply,
  intake: UploadIntake,
): Promise<MultipartUpload> {
  if (!request.isMultipart()) {
    throw new GatewayError(
      415,
      'unsupported_media_type',
      'Send multipart/form-data with a `file` field; let your HTTP client set the Content-Type and its boundary.',
    );
  }
  const upload: MultipartUpload = { fields: {} };
  // The parser pipes the body first; the watch's 'data' listener then only sees what flows to it.
  const parts = request.parts()[Symbol.asyncIterator]();
  const stalled = new AbortController();
  const stall = idleWatch(request, intake.idleTimeoutMs, stalled);
  let fieldBytes = 0;
  try {
    for (let next = await stall.race(parts.next()); !next.done; next = await stall.race(parts.next())) {
      const part: Multipart = next.value;
      if (part.type === 'file') {
        if (upload.file) {
          part.file.resume();
          throw new GatewayError(422, 'too_many_files', 'Send exactly one file per request.', {
            param: part.fieldname,
          });
        }
        const received = await intake.files.receive(part.file, {
          maxBytes: intake.maxBytes,
          signal: stalled.signal,
        });
        // Removed once the answer has left (or the client has gone); a route that keeps it has moved it by then.
        reply.raw.once('close', () => void received.discard());
        upload.file = Object.assign(received, {
          filename: part.filename || 'upload',
          mimeType: part.mimetype,
          field: part.fieldname,
        });
      } else {
        const value = String(part.value);
        fieldBytes += value.length + part.fieldname.length;
        if (fieldBytes > MAX_FIELD_BYTES)
          throw new GatewayError(
            413,
            'fields_too_large',
            `The text fields of the upload are larger than ${megabytes(MAX_FIELD_BYTES)} together; send large content as the file.`,
            { param: part.fieldname },
          );
        upload.fields[part.fieldname] = value;
      }
    }
  } catch (error) {
    await upload.file?.discard();
    if (!request.raw.complete) reply.header('Connection', 'close');
    throw stall.fired ? stall.error : malformedMultipart(error, request);
  } finally {
    stall.stop();
  }
  return upload;
}

interface IdleWatch {
  /** `step`, or the stall's error if the client sends nothing for the idle timeout first. */
  race<T>(step: Promise<T>): Promise<T>;
  readonly fired: boolean;
  readonly error: GatewayError;
  stop(): void;
}

/** Fires (and aborts `stalled`) when the request's body sends no byte for `idleMs`; every byte that arrives starts the wait again. */
function idleWatch(request: FastifyRequest, idleMs: number, stalled: AbortController): IdleWatch {
  const error = new GatewayError(
    408,
    'upload_stalled',
    `The upload sent nothing for ${Math.round(idleMs / 100) / 10} s (server.body_idle_timeout_ms); the connection is closed. Send the file again.`,
  );
  let fire: () => void = () => undefined;
  const fired = new Promise<never>((_resolve, reject) => {
    fire = () => reject(error);
  });
  fired.catch(() => undefined);
  const onTimeout = () => {
    watch.fired = true;
    stalled.abort(error);
    fire();
  };
  const timer = setTimeout(onTimeout, idleMs);
  const touch = () => timer.refresh();
  request.raw.on('data', touch);
  const watch = {
    fired: false,
    error,
    race<T>(step: Promise<T>): Promise<T> {
      // The step may still settle after a stall, when nothing waits for it any more.
      step.catch(() => undefined);
      return Promise.race([step, fired]);
    },
    stop() {
      clearTimeout(timer);
      request.raw.off('data', touch);
    },
  };
  return watch;
}

/**
 * The multipart parser's own failures (no boundary, a truncated or garbled body) are the client's: 400.
 * A client that left mid-upload is too, whatever its socket's error code says (ECONNRESET is not the
 * database's). Coded errors (ours, and the plugin's limits, mapped to 413 by the error handler) pass through.
 */
function malformedMultipart(error: unknown, request: FastifyRequest): unknown {
  if (error instanceof GatewayError) return error;
  if (request.raw.destroyed && !request.raw.complete) {
    return new GatewayError(400, 'upload_aborted', 'The connection closed before the upload was complete.');
  }
  if ((error as { code?: unknown })?.code !== undefined && (error as { statusCode?: unknown }).statusCode !== undefined)
    return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new GatewayError(
    400,
    'invalid_multipart',
    `The multipart/form-data body could not be read (${reason}). Let your HTTP client build the body and set the Content-Type with its boundary.`,
  );
}

/** A multipart boolean field: "true"/"false"/"1"/"0"; anything else is a 422 naming the field. */
export function booleanField(fields: Record<string, string>, name: string): boolean | undefined {
  const value = fields[name];
  if (value === undefined || value === '') return undefined;
  if (['true', '1', 'yes'].includes(value.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(value.toLowerCase())) return false;
  throw new GatewayError(422, 'invalid_value', `Invalid request: '${name}' must be true or false.`, { param: name });
}

export function numberField(
  fields: Record<string, string>,
  name: string,
  range: { min: number; max: number },
): number | undefined {
  const value = fields[name];
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < range.min || parsed > range.max) {
    throw new GatewayError(
      422,
      'invalid_value',
      `Invalid request: '${name}' must be a number between ${range.min} and ${range.max}.`,
      { param: name },
    );
  }
  return parsed;
}
