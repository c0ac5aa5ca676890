import type { GatewayModel } from '../../../lib/gateway-types';
import { formatCost, formatCount, formatMs } from '../../../lib/format';
import { healthView } from '../../../lib/provider-health';

type Deployment = NonNullable<GatewayModel['deployments']>[number];

const STRATEGY_LABELS: Record<NonNullable<GatewayModel['routing_strategy']>, string> = {
  weighted: 'weighted random',
  least_busy: 'least busy',
  lowest_latency: 'lowest latency',
  usage_based: 'usage-based (rpm/tpm)',
};

/** Its weight as a share of the route's, and this minute's use of its rpm/tpm. */
function limits(deployment: Deployment, totalWeight: number): string {
  const parts = [totalWeight > 0 ? `${Math.round((deployment.weight / totalWeight) * 100)} %` : 'weight 0'];
  if (deployment.rpm !== undefined) parts.push(`${deployment.minute_requests}/${deployment.rpm} rpm`);
  if (deployment.tpm !== undefined) parts.push(`${deployment.minute_tokens}/${deployment.tpm} tpm`);
  return parts.join(' · ');
}

/** A balanced route's deployments: how one is chosen, and each one's health, traffic, errors, latency and spend. */
export function DeploymentList({ model, currency }: { model: GatewayModel; currency: string }) {
  const deployments = model.deployments ?? [];
  const totalWeight = deployments.reduce((sum, deployment) => sum + deployment.weight, 0);
  return (
    <div className="cell-stack deployment-list" data-testid="deployments">
      <span className="small faint">
        {deployments.length} deployments · {STRATEGY_LABELS[model.routing_strategy ?? 'weighted']}
      </span>
      {deployments.map((deployment) => {
        const view = healthView(deployment.health);
        return (
          <div key={deployment.id} className="cell-stack" data-testid="deployment">
            <span className={`model-state model-state-${deployment.health.state}`} title={view.note ?? view.label}>
              <span className="dot" aria-hidden="true" />
              <span className="mono">{deployment.id}</span>
              {deployment.cooldown_seconds > 0 && (
                <span className="badge badge-warn">429 · back in {deployment.cooldown_seconds} s</span>
              )}
            </span>
            <span className="small muted">{limits(deployment, totalWeight)}</span>
            <span className="small muted">
              {formatCount(deployment.requests, 'request')} · {formatCount(deployment.errors, 'error')}
              {deployment.latency_ms !== null && ` · ${formatMs(deployment.latency_ms)}`} ·{' '}
              {formatCount(deployment.tokens, 'token')} · {formatCost(deployment.spend, currency)}
            </span>
          </div>
        );
      })}
    </div>
  );
}
