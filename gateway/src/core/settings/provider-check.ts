import type { Capability } from '../../providers/contracts/capability.js';
import type { ProviderInstance } from '../../providers/contracts/provider-instance.js';
import type { ProviderCheck } from '../../wire/settings-schemas.js';

const TIMEOUT_MS = 15_000;
/** Capabilities a provider can be tested with for the price of a token, cheapest first. */
export const CHECKABLE: readonly Capability[] = ['embeddings', 'chat', 'completions'];

/**
 * One real, minimal call to a provider, outside the route runner: no retries, no fallbacks, and
 * the circuit breaker is not touched, so testing a broken provider does not change how it is routed.
 */
export async function checkProvider(
  provider: ProviderInstance,
  target: { upstreamModel: string; id: string; capability: Capability } | null,
): Promise<ProviderCheck> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (!target) {
    const status = provider.status();
    return {
      ok: status.state !== 'unavailable',
      checked: 'engine_state',
      latency_ms: elapsed(),
      ...(status.detail && status.state === 'unavailable' ? { error: status.detail } : {}),
    };
  }
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  const model = target.upstreamModel;
  try {
    const { capabilities } = provider;
    if (target.capability === 'embeddings') await capabilities.embeddings!.embed({ model, input: ['ping'], signal });
    else if (target.capability === 'chat')
      await capabilities.chat!.chat({ model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1, signal });
    else await capabilities.completions!.complete({ model, prompt: 'ping', max_tokens: 1, signal });
    return { ok: true, checked: 'request', model: target.id, capability: target.capability, latency_ms: elapsed() };
  } catch (error) {
    const message = signal.aborted
      ? `No answer within ${TIMEOUT_MS / 1000} s.`
      : error instanceof Error
        ? error.message
        : String(error);
    return {
      ok: false,
      checked: 'request',
      model: target.id,
      capability: target.capability,
      latency_ms: elapsed(),
      error: message,
    };
  }
}
