import type { SpanAttributes, StageTracer } from '../contracts/stage-tracer.js';

/** Runs `work` as a span of the request that runs it (failed with its error), when there is a tracer. */
export async function tracedStage<T>(
  tracer: StageTracer | undefined,
  name: string,
  attributes: SpanAttributes,
  work: () => Promise<T>,
): Promise<T> {
  const span = tracer?.start(name, attributes);
  if (!span) return work();
  try {
    return await tracer!.within(span, work);
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}
