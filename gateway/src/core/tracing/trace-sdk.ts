import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import type { TraceSampler, TraceSettings } from '../../config/trace-settings.js';

export { OtlpSpanExport } from './otlp-span-export.js';

/**
 * The parts of the OpenTelemetry SDK a gateway loads only when it needs them (composition imports
 * this module when `needsTraceSdk`): about a tenth of a second of every start that does neither.
 */
export type TraceSdk = typeof import('./trace-sdk.js');

/** The SDK's sampler for a setting other than the default. */
export function samplerOf(setting: TraceSampler): Sampler {
  switch (setting.kind) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(setting.ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(setting.ratio) });
  }
}

/** The resource of exported spans: OTEL_RESOURCE_ATTRIBUTES under the gateway's own version and instance. */
export function traceResource(settings: TraceSettings, version: string, instanceId: string): Resource {
  return resourceFromAttributes({
    ...settings.resource,
    'service.version': version,
    'service.instance.id': instanceId,
  });
}
