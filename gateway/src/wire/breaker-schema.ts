import { Type, type Static } from '@sinclair/typebox';

/** A provider's circuit breaker as /status and the Settings page show it (core/routing/circuit-breaker.ts makes it). */
export const BreakerObject = Type.Object({
  state: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')]),
  consecutive_failures: Type.Integer({
    description: 'Failed requests in a row (the retries of one request count once)',
  }),
  retry_after_seconds: Type.Union([Type.Integer(), Type.Null()], {
    description: 'While open: seconds until one trial request is let through',
  }),
});
export type BreakerSnapshot = Static<typeof BreakerObject>;
export type BreakerState = BreakerSnapshot['state'];
