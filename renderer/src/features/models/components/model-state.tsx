import type { GatewayModel } from '../../../lib/gateway-types';

/**
 * A coloured dot and the state's name, with the engine's own explanation (install steps, why it is
 * unavailable) under it; `unknown` when the list is an old copy from a gateway that no longer answers.
 */
export function ModelState({ model, unknown = false }: { model: GatewayModel; unknown?: boolean }) {
  if (unknown) {
    return (
      <span className="model-state model-state-unknown" title={`Last known: ${model.state}`} data-testid="model-state">
        <span className="dot" aria-hidden="true" />
        unknown
      </span>
    );
  }
  return (
    <div className="cell-stack">
      <span className={`model-state model-state-${model.state}`} data-testid="model-state">
        <span className="dot" aria-hidden="true" />
        {model.state}
      </span>
      {model.state_detail && model.state !== 'ready' && <span className="small muted model-state-detail">{model.state_detail}</span>}
    </div>
  );
}
