import { Type, type Static } from '@sinclair/typebox';

/**
 * A local engine's state, for /status and the warm-up gate: `cold` means not loaded (the next call loads it),
 * `loading` means a load is under way, `ready` is warm, `unavailable` means it cannot serve (see `detail`).
 */
export const EngineState = Type.Union([
  Type.Literal('cold'),
  Type.Literal('loading'),
  Type.Literal('ready'),
  Type.Literal('unavailable'),
]);
export type EngineState = Static<typeof EngineState>;
