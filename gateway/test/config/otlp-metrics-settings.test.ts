import { describe, expect, it } from 'vitest';
import { loadOtlpMetricsSettings } from '../../src/config/otlp-metrics-settings.js';

describe('the OTLP metrics settings', () => {
  it('export nothing without an endpoint, with OTEL_SDK_DISABLED=true or with OTEL_METRICS_EXPORTER=none', () => {
    expect(loadOtlpMetricsSettings({})).toBeUndefined();
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(loadOtlpMetricsSettings({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' })).toBeUndefined();
    expect(loadOtlpMetricsSettings({ ...endpoint, OTEL_METRICS_EXPORTER: 'none' })).toBeUndefined();
    // Prometheus is the /metrics page, always served: asking for it alone pushes nothing over OTLP.
    expect(loadOtlpMetricsSettings({ ...endpoint, OTEL_METRICS_EXPORTER: 'prometheus' })).toBeUndefined();
    expect(loadOtlpMetricsSettings({ ...endpoint, OTEL_METRICS_EXPORTER: 'prometheus,otlp' })).toMatchObject({
      warnings: [],
    });
    expect(loadOtlpMetricsSettings({ ...endpoint, OTEL_METRICS_EXPORTER: 'console' })).toMatchObject({
      warnings: [expect.stringMatching(/^OTEL_METRICS_EXPORTER: console is not supported/)],
    });
  });

  it('add /v1/metrics to the common endpoint, take the metrics endpoint as it is, and default to protobuf every 60 s', () => {
    expect(loadOtlpMetricsSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      url: 'http://collector:4318/v1/metrics',
      protocol: 'http/protobuf',
      headers: {},
      intervalMs: 60_000,
      timeoutMs: 10_000,
      resource: { 'service.name': 'switchyard' },
      warnings: [],
    });
    const settings = loadOtlpMetricsSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://metrics.example/otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-team=a',
      OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'x-team=b',
      OTEL_METRIC_EXPORT_INTERVAL: '5000',
      OTEL_METRIC_EXPORT_TIMEOUT: '20000',
      OTEL_SERVICE_NAME: 'edge-gateway',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=other,deployment.environment.name=prod',
    });
    expect(settings).toEqual({
      url: 'https://metrics.example/otlp',
      protocol: 'http/json',
      headers: { authorization: 'Bearer abc', 'x-team': 'b' },
      // An export never lasts longer than the interval.
      intervalMs: 5000,
      timeoutMs: 5000,
      resource: { 'service.name': 'edge-gateway', 'deployment.environment.name': 'prod' },
      warnings: [],
    });
  });

  it('refuse an endpoint that cannot work, and ignore a bad number or header with a warning that shows no header value', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(() => loadOtlpMetricsSettings({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported; use http\/protobuf .* or http\/json/,
    );
    expect(() => loadOtlpMetricsSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT: the scheme must be http:\/\/ or https:\/\//,
    );
    const settings = loadOtlpMetricsSettings({
      ...endpoint,
      OTEL_METRIC_EXPORT_INTERVAL: '0',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=%E0%A4%A-secret',
    });
    expect(settings).toMatchObject({ intervalMs: 60_000, headers: {} });
    expect(settings?.warnings).toEqual([
      expect.stringMatching(
        /^OTEL_EXPORTER_OTLP_HEADERS: expected key=value pairs separated by commas; the value of authorization is left out/,
      ),
      'OTEL_METRIC_EXPORT_INTERVAL: "0" is not a positive whole number of milliseconds; using 60000',
    ]);
    expect(settings?.warnings.join('\n')).not.toContain('secret');
  });
});
