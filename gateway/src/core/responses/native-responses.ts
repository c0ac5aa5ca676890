import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { ResponsesUpstreamEvent } from '../../providers/contracts/responses.js';
import type { StoredResponseRecord } from '../../store/responses-repository.js';
import type { ResponseObjectType, ResponsesBodyType, StoredInputItemType } from '../../wire/responses-schemas.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { StreamUsageEstimate } from '../billing/stream-usage-estimate.js';
import type { ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';
import { storeAfterStream, type ResponseStreamEvent, type ResponsesOutcome } from './responses-outcome.js';

/** A Responses request for an upstream that speaks the Responses API itself. */
export interface NativeRequest {
  body: ResponsesBodyType;
  /** The stored response `previous_response_id` names, when the caller may read it. */
  previous: StoredResponseRecord | undefined;
  /** The conversation before this request (the previous response's items) and the request's own input. */
  context: StoredInputItemType[];
  input: StoredInputItemType[];
  /** Billed when the upstream reports no usage, and for a stream the client leaves. */
  estimate: StreamUsageEstimate;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Passes a Responses request through to the route's upstream (provider option `responses_api: true`)
 * with its upstream model name, on the route runner (retries, fallbacks that speak it too), and
 * answers with the upstream's response under the gateway's model id; `store` keeps it.
 */
export async function passThroughResponse(
  runner: RouteRunner,
  route: ModelRoute,
  request: NativeRequest,
  meter: UsageMeter,
  signal: AbortSignal,
  store: (response: Record<string, unknown>) => Promise<void>,
): Promise<ResponsesOutcome> {
  if (!request.body.stream) {
    const { value, route: served } = await runner.invoke(
      route,
      'responses',
      signal,
      (native, model, attemptSignal) => native.create(upstreamBody(request, model), attemptSignal),
      'chat',
    );
    const response = { ...value, model: served.id };
    meter.charge(served, usageOf(value.usage) ?? request.estimate.usage());
    await store(response);
    // The upstream's own response object: the same wire shape, passed through.
    return { kind: 'json', response: response as unknown as ResponseObjectType };
  }
  const { value: events, route: served } = await runner.invokeStream(
    route,
    'responses',
    signal,
    (native, model, attemptSignal) => native.createStream(upstreamBody(request, model), attemptSignal),
    'chat',
  );
  meter.chargeEstimateIfAbandoned(served, request.estimate);
  return { kind: 'stream', events: relayed(events, served, request.estimate, meter, storeAfterStream(store)) };
}

/**
 * The body for the upstream. A previous response this gateway produced by translation is unknown
 * upstream, so its conversation is sent as input instead of its id.
 */
function upstreamBody(request: NativeRequest, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = { ...request.body, model: upstreamModel };
  if (request.previous && !request.previous.native) {
    delete body.previous_response_id;
    body.input = [...request.context, ...request.input].map(({ id: _id, ...item }) => item);
  }
  return body;
}

function usageOf(value: unknown): TokenUsage | undefined {
  if (!isRecord(value) || typeof value.input_tokens !== 'number' || typeof value.output_tokens !== 'number')
    return undefined;
  return { prompt_tokens: value.input_tokens, completion_tokens: value.output_tokens };
}

/** The upstream's events with the gateway's model id in every response snapshot; bills and stores the final response. */
async function* relayed(
  events: AsyncIterable<ResponsesUpstreamEvent>,
  route: ModelRoute,
  estimate: StreamUsageEstimate,
  meter: UsageMeter,
  keep: (response: Record<string, unknown>) => void,
): AsyncGenerator<ResponseStreamEvent> {
  let sequence = 0;
  for await (const event of events) {
    if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') estimate.add(event.delta);
    const relayedEvent: ResponseStreamEvent = {
      ...event,
      sequence_number: sequence++,
      ...(isRecord(event.response) ? { response: { ...event.response, model: route.id } } : {}),
    };
    if (
      (event.type === 'response.completed' || event.type === 'response.incomplete') &&
      isRecord(relayedEvent.response)
    ) {
      meter.charge(route, usageOf(relayedEvent.response.usage) ?? estimate.usage());
      keep(relayedEvent.response);
    }
    yield relayedEvent;
  }
}
