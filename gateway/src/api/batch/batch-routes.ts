import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ownerScope } from '../../core/account/resource-owner.js';
import { windowSeconds } from '../../core/batch/batch-runner.js';
import type { BatchService } from '../../core/batch/batch-service.js';
import type { BatchRecord } from '../../core/batch/create-batch-job.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { pageOf } from '../_shared/page-of.js';
import { BatchObject } from './batch-schemas.js';
import { Metadata } from '../../wire/text-limits.js';

export function toBatchObject(batch: BatchRecord) {
  return {
    id: batch.id,
    object: 'batch' as const,
    endpoint: batch.endpoint,
    input_file_id: batch.input_file_id,
    completion_window: batch.completion_window,
    status: batch.status,
    output_file_id: batch.output_file_id,
    error_file_id: batch.error_file_id,
    created_at: batch.created_at,
    in_progress_at: batch.in_progress_at,
    completed_at: batch.completed_at,
    failed_at: batch.failed_at,
    cancelled_at: batch.cancelled_at,
    expires_at: batch.created_at + windowSeconds(batch.completion_window),
    request_counts: { total: batch.total, completed: batch.completed, failed: batch.failed },
    metadata: batch.metadata,
    errors: { object: 'list' as const, data: batch.errors },
  };
}

const BatchPath = Type.Object({ batch_id: Type.String({ minLength: 1, maxLength: 200 }) });

/** Batch jobs (SPEC.md), at /v1/batch and OpenAI's /v1/batches: create, read, list, cancel. */
export const batchRoutes: FastifyPluginAsyncTypebox<{ batches: BatchService }> = async (app, { batches }) => {
  for (const base of ['/v1/batch', '/v1/batches']) {
    // OpenAI's path is left out of the OpenAPI document, and its cancel answers `cancelling` as OpenAI's does.
    const openAiPath = base === '/v1/batches';
    const hide = openAiPath;
    app.post(
      base,
      {
        config: { billable: true },
        schema: {
          hide,
          tags: ['batch'],
          summary: 'Create a batch from an uploaded JSONL file ({custom_id, method, url, body} per line)',
          body: Type.Object(
            {
              input_file_id: Type.String({ minLength: 1 }),
              endpoint: Type.String({ minLength: 1 }),
              completion_window: Type.Optional(Type.String({ pattern: '^[0-9]+(h|d)$', default: '24h' })),
              metadata: Type.Optional(Metadata()),
            },
            { additionalProperties: true },
          ),
          response: { 200: BatchObject, ...errorResponses },
        },
      },
      async (request) => {
        const body = request.body;
        const record = await batches.create({
          inputFileId: body.input_file_id,
          endpoint: body.endpoint,
          completionWindow: body.completion_window ?? '24h',
          metadata: body.metadata ?? {},
          owner: ownerScope(request.apiKey),
        });
        return toBatchObject(record);
      },
    );

    app.get(
      base,
      {
        schema: {
          hide,
          tags: ['batch'],
          summary: 'List batches, newest first',
          querystring: Type.Object({
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
            after: Type.Optional(Type.String()),
          }),
          response: {
            200: Type.Object({ object: Type.Literal('list'), data: Type.Array(BatchObject), has_more: Type.Boolean() }),
            ...errorResponses,
          },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 20;
        return pageOf(
          await batches.list(limit + 1, request.query.after, ownerScope(request.apiKey)),
          limit,
          toBatchObject,
        );
      },
    );

    app.get(
      `${base}/:batch_id`,
      {
        schema: {
          hide,
          tags: ['batch'],
          summary: 'Read a batch',
          params: BatchPath,
          response: { 200: BatchObject, ...errorResponses },
        },
      },
      async (request) => toBatchObject(await batches.get(request.params.batch_id, ownerScope(request.apiKey))),
    );

    app.post(
      `${base}/:batch_id/cancel`,
      {
        schema: {
          hide,
          tags: ['batch'],
          summary: openAiPath
            ? 'Cancel a batch that is in_progress (OpenAI): answers cancelling while its lines in flight are stopped and the results written, then it is cancelled (409 when not in_progress)'
            : 'Cancel a batch that is in_progress: answers cancelled with cancelled_at once its lines in flight are stopped and the results written (409 when not in_progress)',
          params: BatchPath,
          response: { 200: BatchObject, ...errorResponses },
        },
      },
      async (request) => {
        const scope = ownerScope(request.apiKey);
        return toBatchObject(
          openAiPath
            ? await batches.cancel(request.params.batch_id, scope)
            : await batches.cancelToEnd(request.params.batch_id, scope),
        );
      },
    );
  }
};
