import { Type, type FastifyPluginAsyncTypebox, type TSchema } from '@fastify/type-provider-typebox';
import { ownerScope } from '../../core/account/resource-owner.js';
import type { EvalsService } from '../../core/evals/evals-service.js';
import { EvalObject, EvalOutputItemObject, EvalRunObject, EVAL_RUN_STATUSES } from '../../wire/eval-schemas.js';
import { Metadata, NameText } from '../../wire/text-limits.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { cursorPage, toEvalObject, toEvalRunObject, toOutputItemObject } from './eval-objects.js';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const EvalPath = Type.Object({ eval_id: Id });
const RunPath = Type.Object({ eval_id: Id, run_id: Id });
const ItemPath = Type.Object({ eval_id: Id, run_id: Id, output_item_id: Id });
const Order = Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' }));
const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  after: Type.Optional(Id),
  order: Order,
};
const ListOf = <T extends TSchema>(item: T) =>
  Type.Object({
    object: Type.Literal('list'),
    data: Type.Array(item),
    first_id: Type.Union([Type.String(), Type.Null()]),
    last_id: Type.Union([Type.String(), Type.Null()]),
    has_more: Type.Boolean(),
  });
const NullableMetadata = Type.Optional(Type.Union([Metadata(), Type.Null()]));
/** Each kind's fields are checked in core, which names the offending field of the kind given. */
const Kinded = (description: string) =>
  Type.Object({ type: Type.String() }, { additionalProperties: true, description });
const pageOf = (query: { limit?: number; after?: string; order?: 'asc' | 'desc' }) => ({
  limit: query.limit ?? 20,
  after: query.after,
  order: query.order ?? 'asc',
});

/**
 * OpenAI's Evals API as the official SDK's `client.evals` calls it: evals, their runs (sampled and
 * graded on the batch queue) and output items. docs/evals.md lists what is served and what differs.
 */
export const evalsRoutes: FastifyPluginAsyncTypebox<{ evals: EvalsService }> = async (app, { evals }) => {
  const tags = ['evals'];

  app.post(
    '/v1/evals',
    {
      schema: {
        tags,
        summary: 'Create an eval: a custom data source config (item_schema) and testing criteria (graders)',
        body: Type.Object({
          name: Type.Optional(NameText()),
          metadata: NullableMetadata,
          data_source_config: Kinded('{"type": "custom", "item_schema": {...}, "include_sample_schema": false}'),
          testing_criteria: Type.Array(Kinded('string_check, text_similarity, label_model or score_model'), {
            minItems: 1,
            maxItems: 100,
          }),
        }),
        response: { 200: EvalObject, ...errorResponses },
      },
    },
    async (request, reply) =>
      toEvalObject(await evals.create(request.body, ownerScope(request.apiKey), clientAbortSignal(reply))),
  );

  app.get(
    '/v1/evals',
    {
      schema: {
        tags,
        summary: 'List evals (oldest first unless order=desc)',
        querystring: Type.Object({
          ...PageQuery,
          order_by: Type.Optional(Type.Union([Type.Literal('created_at'), Type.Literal('updated_at')])),
        }),
        response: { 200: ListOf(EvalObject), ...errorResponses },
      },
    },
    async (request) => {
      const page = await evals.list(pageOf(request.query), ownerScope(request.apiKey));
      return cursorPage(page.data.map(toEvalObject), page.hasMore);
    },
  );

  app.get(
    '/v1/evals/:eval_id',
    { schema: { tags, summary: 'Read an eval', params: EvalPath, response: { 200: EvalObject, ...errorResponses } } },
    async (request) => toEvalObject(await evals.get(request.params.eval_id, ownerScope(request.apiKey))),
  );

  app.post(
    '/v1/evals/:eval_id',
    {
      schema: {
        tags,
        summary: "Update an eval's name or metadata",
        params: EvalPath,
        body: Type.Object({ name: Type.Optional(NameText()), metadata: NullableMetadata }),
        response: { 200: EvalObject, ...errorResponses },
      },
    },
    async (request) =>
      toEvalObject(await evals.update(request.params.eval_id, request.body, ownerScope(request.apiKey))),
  );

  app.delete(
    '/v1/evals/:eval_id',
    {
      schema: {
        tags,
        summary: 'Delete an eval with its runs (running ones are cancelled) and their output items',
        params: EvalPath,
        response: {
          200: Type.Object({ object: Type.Literal('eval.deleted'), deleted: Type.Boolean(), eval_id: Type.String() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      await evals.delete(request.params.eval_id, ownerScope(request.apiKey));
      return { object: 'eval.deleted' as const, deleted: true, eval_id: request.params.eval_id };
    },
  );

  app.post(
    '/v1/evals/:eval_id/runs',
    {
      schema: {
        tags,
        summary:
          'Start a run: jsonl rows (inline or an uploaded file) or completions (a model answers a template per row); every row is checked before anything runs',
        params: EvalPath,
        body: Type.Object({
          name: Type.Optional(NameText()),
          metadata: NullableMetadata,
          data_source: Kinded('jsonl or completions'),
        }),
        response: { 200: EvalRunObject, ...errorResponses },
      },
    },
    async (request, reply) =>
      toEvalRunObject(
        await evals.createRun(
          request.params.eval_id,
          request.body,
          ownerScope(request.apiKey),
          clientAbortSignal(reply),
        ),
      ),
  );

  app.get(
    '/v1/evals/:eval_id/runs',
    {
      schema: {
        tags,
        summary: "List an eval's runs",
        params: EvalPath,
        querystring: Type.Object({
          ...PageQuery,
          status: Type.Optional(Type.Union(EVAL_RUN_STATUSES.map((status) => Type.Literal(status)))),
        }),
        response: { 200: ListOf(EvalRunObject), ...errorResponses },
      },
    },
    async (request) => {
      const { status, ...query } = request.query;
      const page = await evals.listRuns(request.params.eval_id, pageOf(query), status, ownerScope(request.apiKey));
      return cursorPage(page.data.map(toEvalRunObject), page.hasMore);
    },
  );

  app.get(
    '/v1/evals/:eval_id/runs/:run_id',
    {
      schema: {
        tags,
        summary: 'Read a run: its status and result counts as they grow',
        params: RunPath,
        response: { 200: EvalRunObject, ...errorResponses },
      },
    },
    async (request) =>
      toEvalRunObject(await evals.getRun(request.params.eval_id, request.params.run_id, ownerScope(request.apiKey))),
  );

  app.post(
    '/v1/evals/:eval_id/runs/:run_id',
    {
      schema: {
        tags,
        summary: 'Cancel a queued or running run (409 once it ended)',
        params: RunPath,
        response: { 200: EvalRunObject, ...errorResponses },
      },
    },
    async (request) =>
      toEvalRunObject(await evals.cancelRun(request.params.eval_id, request.params.run_id, ownerScope(request.apiKey))),
  );

  app.delete(
    '/v1/evals/:eval_id/runs/:run_id',
    {
      schema: {
        tags,
        summary: 'Delete a run and its output items (a running one is cancelled first)',
        params: RunPath,
        response: {
          200: Type.Object({
            object: Type.Literal('eval.run.deleted'),
            deleted: Type.Boolean(),
            run_id: Type.String(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      await evals.deleteRun(request.params.eval_id, request.params.run_id, ownerScope(request.apiKey));
      return { object: 'eval.run.deleted' as const, deleted: true, run_id: request.params.run_id };
    },
  );

  app.get(
    '/v1/evals/:eval_id/runs/:run_id/output_items',
    {
      schema: {
        tags,
        summary: "List a run's output items in row order (status=pass or fail filters them)",
        params: RunPath,
        querystring: Type.Object({
          ...PageQuery,
          status: Type.Optional(Type.Union([Type.Literal('pass'), Type.Literal('fail'), Type.Literal('error')])),
        }),
        response: { 200: ListOf(EvalOutputItemObject), ...errorResponses },
      },
    },
    async (request) => {
      const { eval_id: evalId, run_id: runId } = request.params;
      const { status, ...query } = request.query;
      const page = await evals.listItems(evalId, runId, pageOf(query), status, ownerScope(request.apiKey));
      return cursorPage(
        page.data.map((item) => toOutputItemObject(evalId, item)),
        page.hasMore,
      );
    },
  );

  app.get(
    '/v1/evals/:eval_id/runs/:run_id/output_items/:output_item_id',
    {
      schema: {
        tags,
        summary: 'Read one output item: the row, the sample and each grader result',
        params: ItemPath,
        response: { 200: EvalOutputItemObject, ...errorResponses },
      },
    },
    async (request) => {
      const { eval_id: evalId, run_id: runId, output_item_id: itemId } = request.params;
      return toOutputItemObject(evalId, await evals.getItem(evalId, runId, itemId, ownerScope(request.apiKey)));
    },
  );
};
