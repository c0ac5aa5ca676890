import { GuardrailsSchema } from '../../wire/guardrail-schema.js';
import { Type, type Static } from '@sinclair/typebox';
import { NameText } from '../../wire/text-limits.js';

const Totals = Type.Object({
  requests: Type.Integer(),
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
  cost: Type.Number(),
});
/** One row of `by_model` (key = model id) or `by_day` (key = YYYY-MM-DD). */
const UsageGroup = Type.Intersect([Type.Object({ key: Type.String() }), Totals]);
export type UsageGroup = Static<typeof UsageGroup>;

export const AccountUsage = Type.Object({
  total_requests: Type.Integer(),
  total_tokens: Type.Integer(),
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_cost: Type.Number(),
  currency: Type.String(),
  by_model: Type.Array(UsageGroup),
  by_day: Type.Array(UsageGroup),
});
export type AccountUsage = Static<typeof AccountUsage>;

export const Balance = Type.Object({
  amount: Type.Number(),
  currency: Type.String(),
  limit: Type.Optional(Type.Number()),
});
export type Balance = Static<typeof Balance>;

export const KeyRole = Type.Union([Type.Literal('owner'), Type.Literal('member')]);
export type KeyRole = Static<typeof KeyRole>;

export const PublicKey = Type.Object({
  id: Type.String(),
  object: Type.Literal('api_key'),
  name: Type.String(),
  role: KeyRole,
  prefix: Type.String(),
  created_at: Type.Integer(),
  last_used_at: Type.Union([Type.Integer(), Type.Null()]),
  revoked: Type.Boolean(),
  spend_limit: Type.Union([Type.Number(), Type.Null()]),
  rpm_limit: Type.Union([Type.Integer(), Type.Null()]),
  guardrails: Type.Union([GuardrailsSchema, Type.Null()]),
});
export type PublicKey = Static<typeof PublicKey>;

export const AccountSnapshot = Type.Object({
  user: Type.Object({ full_name: Type.String(), role: KeyRole }),
  api_key: Type.Object({
    id: Type.String(),
    prefix: Type.String(),
    name: Type.String(),
    role: KeyRole,
    spend_limit: Type.Union([Type.Number(), Type.Null()]),
    rpm_limit: Type.Union([Type.Integer(), Type.Null()]),
  }),
  balance: Balance,
  usage: AccountUsage,
});
export type AccountSnapshot = Static<typeof AccountSnapshot>;

export const BalanceChanges = Type.Object(
  {
    amount: Type.Optional(Type.Number()),
    limit: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
    full_name: Type.Optional(NameText()),
  },
  { additionalProperties: false },
);
export type BalanceChanges = Static<typeof BalanceChanges>;

export const NewKey = Type.Object(
  {
    name: NameText(),
    role: Type.Optional(KeyRole),
    spend_limit: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
    rpm_limit: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    /** Checks on every request the key makes, beside its route's (docs/routing.md). */
    guardrails: Type.Optional(Type.Union([GuardrailsSchema, Type.Null()])),
  },
  { additionalProperties: false },
);
export type NewKey = Static<typeof NewKey>;

/** The one answer that carries the full key. */
export const CreatedKey = Type.Intersect([PublicKey, Type.Object({ key: Type.String() })]);
export type CreatedKey = Static<typeof CreatedKey>;

export const KeyChanges = Type.Object(
  {
    name: Type.Optional(NameText()),
    spend_limit: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
    rpm_limit: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    guardrails: Type.Optional(Type.Union([GuardrailsSchema, Type.Null()])),
  },
  { additionalProperties: false },
);
export type KeyChanges = Static<typeof KeyChanges>;
