import type { ResponseObjectType } from '../../wire/responses-schemas.js';

/** One event of a Responses stream: `type` names it, `sequence_number` counts from 0. */
export type ResponseStreamEvent = { type: string; sequence_number: number } & Record<string, unknown>;

/** A created response: whole, or the events of its stream. */
export type ResponsesOutcome =
  { kind: 'json'; response: ResponseObjectType } | { kind: 'stream'; events: AsyncIterable<ResponseStreamEvent> };

/** Stores a streamed response after its last event: a failed write is reported, the client already has the answer. */
export function storeAfterStream(
  store: (response: Record<string, unknown>) => Promise<void>,
): (response: Record<string, unknown>) => void {
  return (response) =>
    void store(response).catch((error: unknown) =>
      process.emitWarning(`Responses: could not store a streamed response: ${String(error)}`),
    );
}
