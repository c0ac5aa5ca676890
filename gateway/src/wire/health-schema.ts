import { Type, type Static } from '@sinclair/typebox';

/**
 * A provider's or a route's health, the one verdict every endpoint and console page shows
 * (computed by core/routing/route-health.ts).
 */
export const HEALTH_STATES = [
  'ready',
  'not_tested',
  'failing',
  'unreachable',
  'unavailable',
  'cold',
  'loading',
  'no_route',
] as const;

export const HealthStateSchema = Type.Union(
  HEALTH_STATES.map((state) => Type.Literal(state)),
  {
    description:
      'ready: serves now; not_tested: an upstream nothing has reached yet; failing: an upstream whose last requests failed; unreachable: an upstream whose breaker is open or whose last test failed; unavailable: a local engine that cannot run (missing files, failed load) or a provider that did not start; cold / loading: a local engine not loaded yet, or loading; no_route (a capability on /status): no route serves it',
  },
);
export type HealthState = Static<typeof HealthStateSchema>;

export const HealthSchema = Type.Object({
  state: HealthStateSchema,
  reason: Type.Optional(Type.String({ description: 'Why, when not plainly ready' })),
});
export type Health = Static<typeof HealthSchema>;
