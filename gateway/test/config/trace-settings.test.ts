import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadTraceSettings } from '../../src/config/trace-settings.js';

describe('the OpenTelemetry variables for traces', () => {
  it('without an endpoint nothing is exported; the service is switchyard, sampled parent-based', () => {
    expect(loadTraceSettings({})).toEqual({
      resource: { 'service.name': 'switchyard' },
      sampler: { kind: 'parentbased_always_on' },
      warnings: [],
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
    expect(settings.resource).toEqual({ 'service.name': 'gateway-eu' });
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

  it('reads OTEL_RESOURCE_ATTRIBUTES percent-decoded, OTEL_SERVICE_NAME over its service.name; a bad list is ignored whole', () => {
    expect(
      loadTraceSettings({
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod, team=a%2Cb%3Dc,service.name=eu',
      }).resource,
    ).toEqual({ 'deployment.environment.name': 'prod', team: 'a,b=c', 'service.name': 'eu' });
    expect(
      loadTraceSettings({ OTEL_RESOURCE_ATTRIBUTES: 'service.name=eu,team=a', OTEL_SERVICE_NAME: 'gateway-eu' })
        .resource,
    ).toEqual({ 'service.name': 'gateway-eu', team: 'a' });
    const bad = loadTraceSettings({ OTEL_RESOURCE_ATTRIBUTES: 'team=a,no-equals-sign' });
    expect(bad.resource).toEqual({ 'service.name': 'switchyard' });
    expect(bad.warnings).toEqual([expect.stringMatching(/^OTEL_RESOURCE_ATTRIBUTES is ignored/)]);
    expect(loadTraceSettings({ OTEL_RESOURCE_ATTRIBUTES: 'team=%E0%A4%A' }).resource).toEqual({
      'service.name': 'switchyard',
    });
  });

  it('OTEL_TRACES_EXPORTER=none exports nothing; an exporter it does not have is ignored with a warning', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(loadTraceSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }).export).toBeUndefined();
    expect(loadTraceSettings({ ...endpoint, OTEL_TRACES_EXPORTER: ' None ' }).export).toBeUndefined();
    expect(loadTraceSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'otlp' })).toMatchObject({ warnings: [] });
    expect(loadTraceSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'otlp' }).export).toBeDefined();
    const zipkin = loadTraceSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' });
    expect(zipkin.export).toBeDefined();
    expect(zipkin.warnings).toEqual([expect.stringMatching(/^OTEL_TRACES_EXPORTER: zipkin is not supported/)]);
  });

  it('an unknown sampler or a ratio that is not one is ignored with a warning, as if unset (the SDK specification)', () => {
    for (const kind of ['sometimes', 'jaeger_remote', 'parentbased_jaeger_remote', 'xray']) {
      const settings = loadTraceSettings({ OTEL_TRACES_SAMPLER: kind });
      expect(settings.sampler).toEqual({ kind: 'parentbased_always_on' });
      expect(settings.warnings).toEqual([expect.stringMatching(/^OTEL_TRACES_SAMPLER: /)]);
    }
    for (const arg of ['2', '-0.1', 'half', 'NaN']) {
      const settings = loadTraceSettings({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: arg });
      expect(settings.sampler).toEqual({ kind: 'traceidratio', ratio: 1 });
      expect(settings.warnings).toEqual([expect.stringMatching(/^OTEL_TRACES_SAMPLER_ARG: /)]);
    }
    expect(loadTraceSettings({ OTEL_TRACES_SAMPLER: 'TraceIdRatio', OTEL_TRACES_SAMPLER_ARG: ' ' })).toMatchObject({
      sampler: { kind: 'traceidratio', ratio: 1 },
      warnings: [],
    });
  });

  it('refuses an endpoint it cannot send to, naming the variable', () => {
    const refused = (env: NodeJS.ProcessEnv) => () => loadTraceSettings(env);
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(refused({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL.*grpc/);
    expect(refused({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(ConfigError);
  });

  it('ignores a bad number or header pair with a warning naming the variable, as the SDK specification says', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    const settings = loadTraceSettings({
      ...endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: 'no-equals-sign,api-key=%E0%A4%A-secret,x-team=a%20b',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '0',
      OTEL_BSP_SCHEDULE_DELAY: '1.5',
    });
    expect(settings.export).toMatchObject({ headers: { 'x-team': 'a b' }, timeoutMs: 10_000, batchDelayMs: 1000 });
    expect(settings.warnings).toEqual([
      expect.stringMatching(/^OTEL_EXPORTER_OTLP_HEADERS: .*a pair without a key is left out/),
      expect.stringMatching(/^OTEL_EXPORTER_OTLP_HEADERS: .*the value of api-key is left out/),
      'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "0" is not a positive whole number of milliseconds; using 10000',
      'OTEL_BSP_SCHEDULE_DELAY: "1.5" is not a positive whole number of milliseconds; using 1000',
    ]);
    // A header value may be a credential: no warning shows one.
    expect(settings.warnings.join('\n')).not.toContain('secret');
  });
});
