/** One event of an upstream Responses stream, parsed: `type` names it. */
export type ResponsesUpstreamEvent = { type: string } & Record<string, unknown>;

/** Passes a Responses API request through to an upstream that speaks it (provider option `responses_api: true`). */
export interface ResponsesProvider {
  create(body: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** Resolves before the first event, like chatStream. */
  createStream(body: Record<string, unknown>, signal: AbortSignal): Promise<AsyncIterable<ResponsesUpstreamEvent>>;
}
