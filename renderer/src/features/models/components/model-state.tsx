import type { GatewayModel } from '../../../lib/gateway-types';
import { healthView } from '../../../lib/provider-health';

/**
 * A coloured dot and the route's health (the gateway's one verdict, as on Status and Settings),
 * with why under it (install steps, why it is unreachable); `unknown` when the list is an old copy
 * from a gateway that no longer answers.
 */
export function ModelState({ model, unknown = false }: { model: GatewayModel; unknown?: boolean }) {
  const view = healthView(model.health);
  if (unknown) {
    return (
      <span className="model-state model-state-unknown" title={`Last known: ${view.label}`} data-testid="model-state">
        <span className="dot" aria-hidden="true" />
        unknown
      </span>
    );
  }
  return (
    <div className="cell-stack">
      <span className={`model-state model-state-${model.health.state}`} data-testid="model-state">
        <span className="dot" aria-hidden="true" />
        {view.label}
      </span>
      {view.note && model.health.state !== 'ready' && (
        <span className="small muted model-state-detail clamp-3" title={view.note}>
          {view.note}
        </span>
      )}
    </div>
  );
}
