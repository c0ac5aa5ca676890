import { ownerScope } from '../../core/account/resource-owner.js';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BatchService } from '../../core/batch/batch-service.js';
import { toMistralBatchJob } from '../../core/batch/mistral-batch-jobs.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { Metadata } from '../../wire/text-limits.js';

const BatchJob = Type.Object({
  id: Type.String(),
  object: Type.Literal('batch'),
  input_files: Type.Array(Type.String()),
  metadata: Type.Record(Type.String(), Type.String()),
  endpoint: Type.String(),
  model: Type.Union([Type.String(), Type.Null()]),
  agent_id: Type.Union([Type.String(), Type.Null()]),
  output_file: Type.Union([Type.String(), Type.Null()]),
  error_file: Type.Union([Type.String(), Type.Null()]),
  errors: Type.Array(Type.Object({ message: Type.String(), count: Type.Integer() })),
  status: Type.String({
    description: 'QUEUED | RUNNING | SUCCESS | FAILED | TIMEOUT_EXCEEDED | CANCELLATION_REQUESTED | CANCELLED',
  }),
  created_at: Type.Integer(),
  total_requests: Type.Integer(),
  completed_requests: Type.Integer(),
  succeeded_requests: Type.Integer(),
  failed_requests: Type.Integer(),
  started_at: Type.Union([Type.Integer(), Type.Null()]),
  completed_at: Type.Union([Type.Integer(), Type.Null()]),
});
const JobPath = Type.Object({ job_id: Type.String({ minLength: 1, maxLength: 200 }) });

/** Mistral's batch jobs API (/v1/batch/jobs) over the same batch engine as /v1/batch (SPEC) and /v1/batches (OpenAI). */
export const mistralBatchJobsRoutes: FastifyPluginAsyncTypebox<{ batches: BatchService }> = async (
  app,
  { batches },
) => {
  app.post(
    '/v1/batch/jobs',
    {
      config: { billable: true },
      schema: {
        tags: ['batch'],
        operationId: 'createBatchJob',
        summary: "Create a batch job (Mistral's shape: input_files or inline requests, endpoint, model)",
        body: Type.Object(
          {
            input_files: Type.Optional(
              Type.Union([Type.Array(Type.String({ minLength: 1 }), { maxItems: 100 }), Type.Null()]),
            ),
            requests: Type.Optional(
              Type.Union([
                Type.Array(
                  Type.Object({
                    custom_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
                    body: Type.Record(Type.String(), Type.Unknown()),
                  }),
                  { maxItems: 10_000 },
                ),
                Type.Null(),
              ]),
            ),
            endpoint: Type.String({ minLength: 1 }),
            model: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
            agent_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
            metadata: Type.Optional(Type.Union([Metadata(), Type.Null()])),
            timeout_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 168 })),
          },
          { additionalProperties: true },
        ),
        response: { 200: BatchJob, ...errorResponses },
      },
    },
    async (request) => toMistralBatchJob(await batches.createMistralJob(request.body, ownerScope(request.apiKey))),
  );

  app.get(
    '/v1/batch/jobs',
    {
      schema: {
        tags: ['batch'],
        operationId: 'listBatchJobs',
        summary: 'List batch jobs, newest first (Mistral shape)',
        querystring: Type.Object(
          {
            page: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
            page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
          },
          { additionalProperties: true },
        ),
        response: {
          200: Type.Object({ object: Type.Literal('list'), data: Type.Array(BatchJob), total: Type.Integer() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const page = request.query.page ?? 0;
      const size = request.query.page_size ?? 100;
      const scope = ownerScope(request.apiKey);
      const [rows, total] = await Promise.all([
        batches.list(size, undefined, scope, page * size),
        batches.count(scope),
      ]);
      return { object: 'list' as const, data: rows.map(toMistralBatchJob), total };
    },
  );

  app.get(
    '/v1/batch/jobs/:job_id',
    {
      schema: {
        tags: ['batch'],
        operationId: 'getBatchJob',
        summary: 'Read a batch job (Mistral shape)',
        params: JobPath,
        response: { 200: BatchJob, ...errorResponses },
      },
    },
    async (request) => toMistralBatchJob(await batches.get(request.params.job_id, ownerScope(request.apiKey))),
  );

  app.post(
    '/v1/batch/jobs/:job_id/cancel',
    {
      schema: {
        tags: ['batch'],
        operationId: 'cancelBatchJob',
        summary: 'Cancel a running batch job (Mistral shape; 409 when it is not running)',
        params: JobPath,
        response: { 200: BatchJob, ...errorResponses },
      },
    },
    async (request) => toMistralBatchJob(await batches.cancel(request.params.job_id, ownerScope(request.apiKey))),
  );

  app.delete(
    '/v1/batch/jobs/:job_id',
    {
      schema: {
        tags: ['batch'],
        operationId: 'deleteBatchJob',
        summary:
          'Delete a batch job: refused with 422 unsupported_operation (jobs are kept as the record of what ran; delete their files instead)',
        params: JobPath,
        response: { ...errorResponses },
      },
    },
    async (request) => batches.refuseDelete(request.params.job_id, ownerScope(request.apiKey)),
  );
};
