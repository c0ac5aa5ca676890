import { Counter, Gauge, type Registry } from 'prom-client';
import type { RouteDeployment } from '../routing/route-deployment.js';

/** A deployment of a balanced route, as the metrics read it. */
export interface DeploymentSeries {
  route: { id: string };
  deployment: RouteDeployment;
}

/**
 * Per-deployment series of balanced routes, read from the deployments at scrape time (nothing on
 * the request path): requests by outcome, tokens, spend, requests in flight, mean latency and the
 * 429 cool-down. Labels: the route (`model`), the deployment and its provider.
 */
export function registerDeploymentMetrics(registry: Registry, source: () => DeploymentSeries[]): void {
  const registers = [registry];
  const labelsOf = ({ route, deployment }: DeploymentSeries) => ({
    model: route.id,
    deployment: deployment.id,
    provider: deployment.provider.id,
  });
  const labelNames = ['model', 'deployment', 'provider'] as const;
  new Counter({
    name: 'switchyard_deployment_requests_total',
    help: 'Attempts sent to each deployment of a balanced route, by outcome (ok, error).',
    labelNames: [...labelNames, 'outcome'],
    registers,
    collect() {
      this.reset();
      for (const series of source()) {
        const { requests, errors, inFlight } = series.deployment;
        this.inc({ ...labelsOf(series), outcome: 'ok' }, requests - errors - inFlight);
        this.inc({ ...labelsOf(series), outcome: 'error' }, errors);
      }
    },
  });
  const total = (name: string, help: string, read: (deployment: RouteDeployment) => number) =>
    new Counter({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const series of source()) this.inc(labelsOf(series), read(series.deployment));
      },
    });
  total('switchyard_deployment_tokens_total', 'Prompt and completion tokens each deployment served.', (d) => d.tokens);
  total(
    'switchyard_deployment_spend_total',
    "What each deployment's requests cost at the route's prices, in the account currency.",
    (d) => d.spend,
  );
  const gauge = (name: string, help: string, read: (deployment: RouteDeployment) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const series of source()) {
          const value = read(series.deployment);
          if (value !== undefined) this.set(labelsOf(series), value);
        }
      },
    });
  gauge(
    'switchyard_deployment_in_flight',
    'Requests waiting for a deployment to answer (this instance).',
    (d) => d.inFlight,
  );
  gauge(
    'switchyard_deployment_latency_seconds',
    "Mean time to each deployment's answer (a stream's first byte) over its last 32 requests.",
    (d) => {
      const ms = d.latencyMs();
      return ms === undefined ? undefined : ms / 1000;
    },
  );
  gauge(
    'switchyard_deployment_cooldown_seconds',
    'Seconds a deployment is still skipped after it answered 429 (0: not cooling down).',
    (d) => d.coolingSeconds(),
  );
}
