import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AccountService } from '../../core/account/account-service.js';
import { toPublicKey, type KeyService } from '../../core/account/key-service.js';
import { errorResponses } from '../_shared/common-schemas.js';
import {
  AccountSnapshot,
  AccountUsage,
  Balance,
  BalanceChanges,
  CreatedKey,
  KeyChanges,
  NewKey,
  PublicKey,
} from './account-schemas.js';

const KeyPath = Type.Object({ id: Type.String({ minLength: 1 }) });

const withTotal = <T extends { prompt_tokens: number; completion_tokens: number }>(totals: T) => ({
  ...totals,
  total_tokens: totals.prompt_tokens + totals.completion_tokens,
});

/** /account/me, /account/usage, the balance, and key management for Owners. */
export const accountRoutes: FastifyPluginAsyncTypebox<{ keys: KeyService; accounts: AccountService }> = async (
  app,
  { keys, accounts },
) => {
  /** Usage of the whole account for Owners, of the presenting key for Members. */
  const usageFor = async (keyId: string | undefined) => {
    const usage = await accounts.usage(keyId);
    const totals = withTotal(usage.totals);
    return {
      total_requests: totals.requests,
      total_tokens: totals.total_tokens,
      prompt_tokens: totals.prompt_tokens,
      completion_tokens: totals.completion_tokens,
      total_cost: Math.round(totals.cost * 1e6) / 1e6,
      currency: usage.currency,
      by_model: usage.byModel.map(withTotal),
      by_day: usage.byDay.map(withTotal),
    };
  };

  app.get(
    '/account/me',
    {
      schema: {
        tags: ['account'],
        summary: 'Account snapshot',
        response: {
          200: AccountSnapshot,
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const key = request.apiKey!;
      return {
        user: { full_name: accounts.record().full_name, role: key.role },
        api_key: {
          id: key.id,
          prefix: key.prefix,
          name: key.name,
          role: key.role,
          spend_limit: key.spend_limit,
          rpm_limit: key.rpm_limit,
        },
        balance: await accounts.sharedBalance(key),
        usage: await usageFor(key.role === 'owner' ? undefined : key.id),
      };
    },
  );

  app.get(
    '/account/usage',
    {
      config: { auth: 'x-api-key' },
      schema: {
        tags: ['account'],
        summary: 'Usage (requires X-API-Key)',
        security: [{ apiKey: [] }],
        response: { 200: Type.Object({ usage: AccountUsage }), ...errorResponses },
      },
    },
    async (request) => ({ usage: await usageFor(request.apiKey!.role === 'owner' ? undefined : request.apiKey!.id) }),
  );

  app.patch(
    '/account/balance',
    {
      config: { auth: 'owner' },
      schema: {
        tags: ['account'],
        summary: 'Set the balance or the account spending limit (Owner)',
        body: BalanceChanges,
        response: { 200: Balance, ...errorResponses },
      },
    },
    async (request) => {
      const { amount, limit, full_name } = request.body;
      await accounts.update({
        ...(amount !== undefined ? { balance: amount } : {}),
        ...(limit !== undefined ? { spend_limit: limit } : {}),
        ...(full_name ? { full_name } : {}),
      });
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
        body: NewKey,
        response: { 201: CreatedKey, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { key, record } = await keys.create({ ...request.body, role: request.body.role ?? 'member' });
      reply.status(201);
      return { ...toPublicKey(record), key };
    },
  );

  app.get(
    '/account/keys',
    {
      config: { auth: 'owner' },
      schema: {
        tags: ['account'],
        summary: 'List API keys (Owner)',
        response: {
          200: Type.Object({ object: Type.Literal('list'), data: Type.Array(PublicKey) }),
          ...errorResponses,
        },
      },
    },
    async () => ({
      object: 'list' as const,
      data: (await keys.list()).map(toPublicKey),
    }),
  );

  app.patch(
    '/account/keys/:id',
    {
      config: { auth: 'owner' },
      schema: {
        tags: ['account'],
        summary: 'Rename a key or set its limits (Owner)',
        params: KeyPath,
        body: KeyChanges,
        response: { 200: PublicKey, ...errorResponses },
      },
    },
    async (request) => toPublicKey(await keys.update(request.params.id, request.body)),
  );

  app.delete(
    '/account/keys/:id',
    {
      config: { auth: 'owner' },
      schema: {
        tags: ['account'],
        summary: 'Revoke a key (Owner); it stops working at once',
        params: KeyPath,
        response: { 200: PublicKey, ...errorResponses },
      },
    },
    async (request) => toPublicKey(await keys.revoke(request.params.id, request.apiKey!.id)),
  );
};
