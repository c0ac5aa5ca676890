import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadTraceSettings } from '../../src/config/trace-settings.js';

describe('the OpenTelemetry variables for traces', () => {
  it('without an endpoint nothing is exported; the service is switchyard, sampled parent-based', () => {
    expect(loadTraceSettings({})).toEqual({
      serviceName: 'switchyard',
      sampler: { kind: 'parentbased_always_on' },
    });
  });

  it('the base endpoint gets /v1/traces, the traces endpoint is used as given and wins', () => {
    expect(loadTraceSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).export).toEqual({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      timeoutMs: 10_000,
      batchDelayMs: 1000,
    });
    expect(
      loadTraceSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp',
      }).export?.url,
    ).toBe('https://traces.example/otlp');
  });

  it('reads the protocol, the headers (the traces ones over the shared ones) and the service name', () => {
    const settings = loadTraceSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=shared,x-team=a%20b',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=traces',
      OTEL_SERVICE_NAME: 'gateway-eu',
    });
    expect(settings.serviceName).toBe('gateway-eu');
    expect(settings.export).toMatchObject({ protocol: 'http/json', headers: { 'api-key': 'traces', 'x-team': 'a b' } });
  });

  it('reads the export timeout (the traces one over the shared one) and the batch delay', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(loadTraceSettings({ ...endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '3000' }).export).toMatchObject({
      timeoutMs: 3000,
      batchDelayMs: 1000,
    });
    expect(
      loadTraceSettings({
        ...endpoint,
        OTEL_EXPORTER_OTLP_TIMEOUT: '3000',
        OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '500',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      }).export,
    ).toMatchObject({ timeoutMs: 500, batchDelayMs: 50 });
  });

  it('OTEL_SDK_DISABLED turns export off; the sampler and its ratio are read', () => {
    expect(
      loadTraceSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).export,
    ).toBeUndefined();
    expect(
      loadTraceSettings({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).sampler,
    ).toEqual({ kind: 'parentbased_traceidratio', ratio: 0.25 });
  });

  it('refuses what it cannot do, naming the variable', () => {
    const refused = (env: NodeJS.ProcessEnv) => () => loadTraceSettings(env);
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(refused({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL.*grpc/);
    expect(refused({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(ConfigError);
    expect(refused({ ...endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'no-equals-sign' })).toThrow(
      /OTEL_EXPORTER_OTLP_HEADERS/,
    );
    expect(refused({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '0' })).toThrow(
      /OTEL_EXPORTER_OTLP_TRACES_TIMEOUT/,
    );
    expect(refused({ ...endpoint, OTEL_BSP_SCHEDULE_DELAY: '1.5' })).toThrow(/OTEL_BSP_SCHEDULE_DELAY/);
    expect(refused({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(refused({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(
      /OTEL_TRACES_SAMPLER_ARG/,
    );
  });
});
