import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toPublicFile, type FileRecord, type FileStore } from '../../core/files/file-store.js';
import type { SignedFileLinks } from '../../core/files/signed-file-links.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { ownerScope } from '../../core/account/resource-owner.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { pageOf } from '../_shared/page-of.js';
import { readMultipart, type UploadIntake } from '../_shared/read-multipart.js';
import { create as contentDisposition } from 'content-disposition';
import { servedContentType } from './served-content-type.js';
import { FileObject } from './file-schemas.js';

const FilePath = Type.Object({ file_id: Type.String({ minLength: 1 }) });
/** A plain type/subtype; anything else (parameters, control or non-ASCII characters) is stored as application/octet-stream. */
const MEDIA_TYPE = /^[\w.+-]{1,100}\/[\w.+-]{1,100}$/;
const PURPOSES = [
  'batch',
  'batch_output',
  'evals',
  'image_generation',
  'fine-tune',
  'assistants',
  'user_data',
  'ocr',
  'vision',
];

/** Files: uploads (batch input) and what the gateway generates (images, batch output), served by id. */
export const fileRoutes: FastifyPluginAsyncTypebox<{
  files: FileStore;
  links: SignedFileLinks;
  uploads: UploadIntake;
}> = async (app, { files, links, uploads }) => {
  app.post(
    '/v1/files',
    {
      schema: {
        tags: ['files'],
        summary: 'Upload a file (multipart: file, purpose)',
        consumes: ['multipart/form-data'],
        response: { 200: FileObject, ...errorResponses },
      },
    },
    async (request, reply) => {
      const keyId = request.apiKey?.id ?? null;
      await files.checkUploadQuota(keyId, Number(request.headers['content-length'] ?? 0) || 0);
      const release = files.beginUpload(keyId);
      try {
        const upload = await readMultipart(request, reply, uploads);
        if (!upload.file)
          throw new GatewayError(422, 'invalid_value', "Invalid request: 'file' is required.", { param: 'file' });
        const purpose = upload.fields.purpose ?? 'user_data';
        if (!PURPOSES.includes(purpose))
          throw new GatewayError(
            422,
            'invalid_value',
            `Invalid request: 'purpose' must be one of ${PURPOSES.join(', ')}.`,
            { param: 'purpose' },
          );
        if (upload.file.bytes === 0)
          throw new GatewayError(422, 'empty_file', 'The uploaded file is empty.', { param: 'file' });
        const record = await files.saveUpload(upload.file, {
          purpose,
          filename: upload.file.filename,
          mimeType: MEDIA_TYPE.test(upload.file.mimeType) ? upload.file.mimeType : 'application/octet-stream',
          keyId,
        });
        return toPublicFile(record);
      } finally {
        release();
      }
    },
  );

  app.get(
    '/v1/files',
    {
      schema: {
        tags: ['files'],
        summary: 'List files, newest first',
        querystring: Type.Object({
          purpose: Type.Optional(Type.String()),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
          after: Type.Optional(Type.String()),
        }),
        response: {
          200: Type.Object({ object: Type.Literal('list'), data: Type.Array(FileObject), has_more: Type.Boolean() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 20;
      return pageOf(
        await files.list({
          purpose: request.query.purpose,
          limit: limit + 1,
          after: request.query.after,
          scope: ownerScope(request.apiKey),
        }),
        limit,
        toPublicFile,
      );
    },
  );

  app.get(
    '/v1/files/:file_id',
    { schema: { tags: ['files'], params: FilePath, response: { 200: FileObject, ...errorResponses } } },
    async (request) => toPublicFile(await files.get(request.params.file_id, ownerScope(request.apiKey))),
  );

  app.get(
    '/v1/files/:file_id/content',
    { config: { unlogged: false }, schema: { tags: ['files'], summary: 'File content', params: FilePath } },
    async (request, reply) =>
      sendContent(request, reply, await files.content(request.params.file_id, ownerScope(request.apiKey))),
  );

  app.get(
    '/v1/files/:file_id/url',
    {
      schema: {
        tags: ['files'],
        operationId: 'getFileSignedUrl',
        summary:
          "A signed link to the file's content, fetchable without an API key until it expires (expiry: hours, 1 to 168, default 24); it opens only files the asking key can see",
        params: FilePath,
        querystring: Type.Object(
          { expiry: Type.Optional(Type.Integer({ minimum: 1, maximum: 168, default: 24 })) },
          { additionalProperties: true },
        ),
        response: { 200: Type.Object({ url: Type.String() }), ...errorResponses },
      },
    },
    async (request) => {
      const link = await links.sign(request.params.file_id, request.apiKey!, request.query.expiry ?? 24);
      const query = new URLSearchParams({
        key_id: link.key_id,
        expires: String(link.expires),
        signature: link.signature,
      });
      return {
        url: `${request.protocol}://${request.host}/v1/files/${encodeURIComponent(request.params.file_id)}/signed-content?${query.toString()}`,
      };
    },
  );

  app.get(
    '/v1/files/:file_id/signed-content',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['files'],
        operationId: 'getSignedFileContent',
        summary:
          'File content through a signed link from GET /v1/files/{file_id}/url (no API key; 403 when the link is forged, expired or its key revoked)',
        security: [],
        params: FilePath,
        querystring: Type.Object({
          key_id: Type.Optional(Type.String({ maxLength: 200 })),
          expires: Type.Optional(Type.Integer({ minimum: 0 })),
          signature: Type.Optional(Type.String({ maxLength: 200 })),
        }),
      },
    },
    async (request, reply) => sendContent(request, reply, await links.open(request.params.file_id, request.query)),
  );

  app.delete(
    '/v1/files/:file_id',
    {
      schema: {
        tags: ['files'],
        params: FilePath,
        response: {
          200: Type.Object({ id: Type.String(), object: Type.Literal('file'), deleted: Type.Boolean() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      await files.delete(request.params.file_id, ownerScope(request.apiKey));
      return { id: request.params.file_id, object: 'file' as const, deleted: true };
    },
  );
};

/** Stored content is a download, never a page of the console's origin. */
function sendContent(
  request: FastifyRequest,
  reply: FastifyReply,
  { record, content }: { record: FileRecord; content: Buffer },
) {
  // A passive type or octet-stream (also when asked for raw bytes, as Mistral's SDK does), an
  // attachment, and a sandbox CSP in case a browser renders it anyway.
  return reply
    .header(
      'Content-Type',
      request.headers.accept === 'application/octet-stream'
        ? 'application/octet-stream'
        : servedContentType(record.mime_type),
    )
    .header('Content-Disposition', contentDisposition(record.filename, { type: 'attachment' }))
    .header('Content-Security-Policy', "sandbox; default-src 'none'; frame-ancestors 'none'")
    .header('Cache-Control', 'private, max-age=31536000, immutable')
    .send(content);
}
