import type { GatewayModel } from '../../../lib/gateway-types';

/** A coloured dot and the state's name; the gateway's `state_detail` is the tooltip. */
export function ModelState({ model }: { model: GatewayModel }) {
  return (
    <span className={`model-state model-state-${model.state}`} title={model.state_detail ?? model.state} data-testid="model-state">
      <span className="dot" aria-hidden="true" />
      {model.state}
      {model.state_detail && <span className="visually-hidden">: {model.state_detail}</span>}
    </span>
  );
}
