import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toPublicKey } from '../../core/account/key-service.js';
import { errorResponses } from '../_shared/common-schemas.js';

const Totals = Type.Object({ requests: Type.Integer(), prompt_tokens: Type.Integer(), completion_tokens: Type.Integer(), total_tokens: Type.Integer(), cost: Type.Number() });
const Group = Type.Intersect([Type.Object({ key: Type.String() }), Totals]);
const Usage = Type.Object({
  total_requests: Type.Integer(),
  total_tokens: Type.Integer(),
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_cost: Type.Number(),
  currency: Type.String(),
  by_model: Type.Array(Group),
  by_day: Type.Array(Group),
});
const Balance = Type.Object({ amount: Type.Number(), currency: Type.String(), limit: Type.Optional(Type.Number()) });
const PublicKey = Type.Object({
  id: Type.String(),
  object: Type.Literal('api_key'),
  name: Type.String(),
  role: Type.Union([Type.Literal('owner'), Type.Literal('member')]),
  prefix: Type.String(),
  created_at: Type.Integer(),
  last_used_at: Type.Union([Type.Integer(), Type.Null()]),
  revoked: Type.Boolean(),
  spend_limit: Type.Union([Type.Number(), Type.Null()]),
  rpm_limit: Type.Union([Type.Integer(), Type.Null()]),
});
const KeyPath = Type.Object({ id: Type.String({ minLength: 1 }) });
const Role = Type.Union([Type.Literal('owner'), Type.Literal('member')]);

const withTotal = <T extends { prompt_tokens: number; completion_tokens: number }>(totals: T) => ({ ...totals, total_tokens: totals.prompt_tokens + totals.completion_tokens });

/** /account/me, /account/usage, the balance, and key management for Owners. */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { keys, accounts, ledger } = app.services;

  /** Usage of the whole account for Owners, of the presenting key for Members. */
  const usageFor = (keyId: string | undefined) => {
    ledger.flush();
    const repository = ledger.repository;
    const totals = withTotal(repository.totals(keyId));
    return {
      total_requests: totals.requests,
      total_tokens: totals.total_tokens,
      prompt_tokens: totals.prompt_tokens,
      completion_tokens: totals.completion_tokens,
      total_cost: Math.round(totals.cost * 1e6) / 1e6,
      currency: accounts.record().currency,
      by_model: repository.byModel(keyId).map(withTotal),
      by_day: repository.byDay(keyId).map(withTotal),
    };
  };

  app.get(
    '/account/me',
    {
      schema: {
        tags: ['account'],
        summary: 'Account snapshot',
        response: {
          200: Type.Object({
            user: Type.Object({ full_name: Type.String(), role: Role }),
            api_key: Type.Object({ id: Type.String(), prefix: Type.String(), name: Type.String(), role: Role, spend_limit: Type.Union([Type.Number(), Type.Null()]), rpm_limit: Type.Union([Type.Integer(), Type.Null()]) }),
            balance: Balance,
            usage: Usage,
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const key = request.apiKey!;
      return {
        user: { full_name: accounts.record().full_name, role: key.role },
        api_key: { id: key.id, prefix: key.prefix, name: key.name, role: key.role, spend_limit: key.spend_limit, rpm_limit: key.rpm_limit },
        balance: accounts.balance(key),
        usage: usageFor(key.role === 'owner' ? undefined : key.id),
      };
    },
  );

  app.get(
    '/account/usage',
    { config: { auth: 'x-api-key' }, schema: { tags: ['account'], summary: 'Usage (requires X-API-Key)', security: [{ apiKey: [] }], response: { 200: Type.Object({ usage: Usage }), ...errorResponses } } },
    async (request) => ({ usage: usageFor(request.apiKey!.role === 'owner' ? undefined : request.apiKey!.id) }),
  );

  app.patch(
    '/account/balance',
    {
      config: { auth: 'owner' },
      schema: {
        tags: ['account'],
        summary: 'Set the balance or the account spending limit (Owner)',
        body: Type.Object({ amount: Type.Optional(Type.Number()), limit: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])), full_name: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false }),
        response: { 200: Balance, ...errorResponses },
      },
    },
    async (request) => {
      const { amount, limit, full_name } = request.body;
      accounts.update({ ...(amount !== undefined ? { balance: amount } : {}), ...(limit !== undefined ? { spend_limit: limit } : {}), ...(full_name ? { full_name } : {}) });
      return accounts.balance();
    },
  );

  app.post(
    '/account/keys',
    {
      config: { auth: 'owner' },
      schema: {
        tags: ['account'],
        summary: 'Create an API key (Owner); the full key is returned once',
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            role: Type.Optional(Role),
            spend_limit: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
            rpm_limit: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Intersect([PublicKey, Type.Object({ key: Type.String() })]), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { key, record } = keys.create({ ...request.body, role: request.body.role ?? 'member' });
      reply.status(201);
      return { ...toPublicKey(record), key };
    },
  );

  app.get('/account/keys', { config: { auth: 'owner' }, schema: { tags: ['account'], summary: 'List API keys (Owner)', response: { 200: Type.Object({ object: Type.Literal('list'), data: Type.Array(PublicKey) }), ...errorResponses } } }, async () => ({
    object: 'list' as const,
    data: keys.list().map(toPublicKey),
  }));

  app.patch(
    '/account/keys/:id',
    {
      config: { auth: 'owner' },
      schema: {
        tags: ['account'],
        summary: 'Rename a key or set its limits (Owner)',
        params: KeyPath,
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            spend_limit: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
            rpm_limit: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
          },
          { additionalProperties: false },
        ),
        response: { 200: PublicKey, ...errorResponses },
      },
    },
    async (request) => toPublicKey(keys.update(request.params.id, request.body)),
  );

  app.delete(
    '/account/keys/:id',
    { config: { auth: 'owner' }, schema: { tags: ['account'], summary: 'Revoke a key (Owner); it stops working at once', params: KeyPath, response: { 200: PublicKey, ...errorResponses } } },
    async (request) => toPublicKey(keys.revoke(request.params.id, request.apiKey!.id)),
  );
};
