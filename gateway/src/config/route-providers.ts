import type { ModelConfig } from '../wire/model-route-schema.js';

/** A provider a route sends to, the field that names it and the model name it is sent. */
export interface RouteProvider {
  provider: string;
  /** `provider`, or `deployments[1].provider`. */
  field: string;
  upstreamModel: string;
}

/** A route entry's providers: its one `provider`, or each of its deployments'. */
export function routeProviders(
  model: Pick<ModelConfig, 'id' | 'provider' | 'upstream_model' | 'deployments'>,
): RouteProvider[] {
  if (model.deployments)
    return model.deployments.map((deployment, index) => ({
      provider: deployment.provider,
      field: `deployments[${index}].provider`,
      upstreamModel: deployment.upstream_model ?? model.id,
    }));
  return model.provider === undefined
    ? []
    : [{ provider: model.provider, field: 'provider', upstreamModel: model.upstream_model ?? model.id }];
}

/**
 * What is wrong with the shape of a route's serving part, if anything: it names exactly one of
 * `provider` and `deployments`, a route with deployments sets no `upstream_model` of its own, and a
 * weighted route's weights do not all be 0. Returns the field and the sentence to show.
 */
export function routeShapeProblem(
  model: Pick<ModelConfig, 'provider' | 'upstream_model' | 'deployments'>,
): { field: string; message: string } | undefined {
  if (model.deployments === undefined && model.provider === undefined)
    return { field: 'provider', message: 'a route needs `provider` (one upstream) or `deployments` (several)' };
  if (model.deployments === undefined) return undefined;
  if (model.provider !== undefined)
    return {
      field: 'provider',
      message: 'a route has either `provider` or `deployments`, not both; put the provider in the deployments list',
    };
  if (model.upstream_model !== undefined)
    return {
      field: 'upstream_model',
      message: 'a route with `deployments` names the upstream model in each deployment',
    };
  if (model.deployments.every((deployment) => deployment.weight === 0))
    return { field: 'deployments', message: 'at least one deployment needs a weight above 0' };
  return undefined;
}
