import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors/gateway-error.js';

export interface MultipartUpload {
  fields: Record<string, string>;
  file?: { content: Buffer; filename: string; mimeType: string; field: string };
}

/** Reads a multipart/form-data body: its text fields and at most one file, fully buffered (size limit from the config). */
export async function readMultipart(request: FastifyRequest): Promise<MultipartUpload> {
  if (!request.isMultipart()) {
    throw new GatewayError(415, 'unsupported_media_type', 'Send multipart/form-data with a `file` field; let your HTTP client set the Content-Type and its boundary.');
  }
  const upload: MultipartUpload = { fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (upload.file) {
          part.file.resume();
          throw new GatewayError(422, 'too_many_files', 'Send exactly one file per request.', { param: part.fieldname });
        }
        upload.file = { content: await part.toBuffer(), filename: part.filename || 'upload', mimeType: part.mimetype, field: part.fieldname };
      } else {
        upload.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    throw malformedMultipart(error);
  }
  return upload;
}

/**
 * The multipart parser's own failures (no boundary, a truncated or garbled body) are the client's: 400.
 * Coded errors (ours, and the plugin's limits, mapped to 413 by the error handler) pass through.
 */
function malformedMultipart(error: unknown): unknown {
  if (error instanceof GatewayError || (error as { code?: unknown })?.code !== undefined) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new GatewayError(400, 'invalid_multipart', `The multipart/form-data body could not be read (${reason}). Let your HTTP client build the body and set the Content-Type with its boundary.`);
}

/** A multipart boolean field: "true"/"false"/"1"/"0"; anything else is a 422 naming the field. */
export function booleanField(fields: Record<string, string>, name: string): boolean | undefined {
  const value = fields[name];
  if (value === undefined || value === '') return undefined;
  if (['true', '1', 'yes'].includes(value.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(value.toLowerCase())) return false;
  throw new GatewayError(422, 'invalid_value', `Invalid request: '${name}' must be true or false.`, { param: name });
}

export function numberField(fields: Record<string, string>, name: string, range: { min: number; max: number }): number | undefined {
  const value = fields[name];
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < range.min || parsed > range.max) {
    throw new GatewayError(422, 'invalid_value', `Invalid request: '${name}' must be a number between ${range.min} and ${range.max}.`, { param: name });
  }
  return parsed;
}
