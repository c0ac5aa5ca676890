import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CatalogEntry, HubModel, LocalModelFile, ModelDownload, OcrLanguage } from '../../wire/local-model-schemas.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { sendEventStream } from '../_shared/event-stream.js';
import type { LocalModels } from '../../core/local-models/local-models.js';

const list = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ object: Type.Literal('list'), data: Type.Array(item) });
const DownloadPath = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const owner = { auth: 'owner' as const };
const tags = ['local-models'];

/**
 * The download manager (Owner only): the curated catalog, hub search, downloads with progress,
 * pause, resume, cancel and server-sent events, and the local model files.
 */
export const localModelsRoutes: FastifyPluginAsyncTypebox<{ localModels: LocalModels }> = async (
  app,
  { localModels },
) => {
  const { downloads, files } = localModels;

  app.get(
    '/v1/local-models/catalog',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Curated small models that run on a laptop CPU',
        response: { 200: list(CatalogEntry), ...errorResponses },
      },
    },
    async () => ({
      object: 'list' as const,
      data: [...localModels.catalog()],
    }),
  );

  app.get(
    '/v1/local-models/ocr-languages',
    {
      config: owner,
      schema: {
        tags,
        summary: "Every language the OCR engine reads: installed, or downloadable from Tesseract's own models",
        response: { 200: list(OcrLanguage), ...errorResponses },
      },
    },
    async () => ({ object: 'list' as const, data: localModels.ocrLanguages() }),
  );

  app.get(
    '/v1/local-models/search',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Search the hub for models the local engines load (GGUF, sherpa-onnx), with their files',
        querystring: Type.Object({ q: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: list(HubModel), ...errorResponses },
      },
    },
    async (request) => ({ object: 'list' as const, data: await localModels.search(request.query.q) }),
  );

  app.post(
    '/v1/local-models/downloads',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Download a model file from the hub (an identical download under way is shared)',
        body: Type.Object({
          repo: Type.String({ minLength: 3, maxLength: 200 }),
          file: Type.String({ minLength: 1, maxLength: 500 }),
          revision: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        }),
        response: { 200: ModelDownload, 201: ModelDownload, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { repo, file, revision } = request.body;
      const { download, created } = await downloads.start(repo, file, revision ?? 'main');
      return reply.code(created ? 201 : 200).send(download);
    },
  );

  app.get(
    '/v1/local-models/downloads',
    {
      config: owner,
      schema: {
        tags,
        summary: 'List downloads, newest first',
        response: { 200: list(ModelDownload), ...errorResponses },
      },
    },
    async () => ({
      object: 'list' as const,
      data: downloads.list(),
    }),
  );

  app.get(
    '/v1/local-models/downloads/:id',
    {
      config: owner,
      schema: {
        tags,
        summary: 'A download',
        params: DownloadPath,
        response: { 200: ModelDownload, ...errorResponses },
      },
    },
    async (request) => downloads.get(request.params.id),
  );

  app.post(
    '/v1/local-models/downloads/:id/pause',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Pause a download',
        params: DownloadPath,
        response: { 200: ModelDownload, ...errorResponses },
      },
    },
    async (request) => downloads.pause(request.params.id),
  );

  app.post(
    '/v1/local-models/downloads/:id/resume',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Resume a paused or failed download',
        params: DownloadPath,
        response: { 200: ModelDownload, ...errorResponses },
      },
    },
    async (request) => downloads.resume(request.params.id),
  );

  app.delete(
    '/v1/local-models/downloads/:id',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Cancel a download and remove its partial file',
        params: DownloadPath,
        response: { 200: ModelDownload, ...errorResponses },
      },
    },
    async (request) => downloads.cancel(request.params.id),
  );

  app.get(
    '/v1/local-models/downloads/:id/events',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Progress as server-sent events; ends after completed, failed or cancelled',
        params: DownloadPath,
        response: { 200: Type.String({ description: 'text/event-stream of download objects' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const first = downloads.get(request.params.id);
      return sendEventStream(request, reply, 'local-models', async (writer) => {
        await new Promise<void>((resolve) => {
          let last = first;
          const unsubscribe = downloads.subscribe(first.id, (download) => {
            last = download;
            void writer.send(download);
            if (downloads.isFinished(download)) finish();
          });
          const finish = () => {
            unsubscribe();
            resolve();
          };
          writer.signal.addEventListener('abort', finish, { once: true });
          void writer.send(last);
          if (downloads.isFinished(last)) finish();
        });
      });
    },
  );

  app.get(
    '/v1/local-models/files',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Model files in the models folder, read from their metadata',
        response: { 200: list(LocalModelFile), ...errorResponses },
      },
    },
    async () => ({
      object: 'list' as const,
      data: await files.list(),
    }),
  );

  app.post(
    '/v1/local-models/files',
    {
      config: owner,
      schema: {
        tags,
        summary:
          'Use a GGUF file already on this computer (Owner): linked into the models folder where it lies and routed at once',
        body: Type.Object({
          path: Type.String({
            minLength: 1,
            maxLength: 4096,
            description: 'Absolute path of a .gguf file the gateway process can read',
          }),
        }),
        response: { 201: LocalModelFile, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await localModels.linkFile(request.body.path)),
  );

  app.delete(
    '/v1/local-models/files/:name',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Delete a model file (or speech model folder) and its routes',
        params: Type.Object({
          name: Type.String({
            minLength: 1,
            description:
              'The file name, or a speech model folder such as `speech/<repo>`; URL-encode the slash (`speech%2F<repo>`).',
          }),
        }),
        response: {
          200: Type.Object({ name: Type.String(), object: Type.Literal('local_model.file'), deleted: Type.Boolean() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const file = await localModels.deleteFile(request.params.name);
      return { name: file.name, object: 'local_model.file' as const, deleted: true };
    },
  );
};
