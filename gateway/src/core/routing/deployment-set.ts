import type { RoutingStrategy } from '../../wire/model-route-schema.js';
import type { RouteDeployment } from './route-deployment.js';

/** A deployment and the route a request it serves runs on (the balanced route with the deployment's provider and model). */
export interface DeploymentMember<Route> {
  deployment: RouteDeployment;
  route: Route;
}

/**
 * The deployments of a balanced route and its strategy: `rank` orders the ones that may serve now
 * (breaker not open, not cooling down after a 429, under their rpm/tpm) with the strategy's choice
 * first and the others after it, in the order retries move through them.
 *
 * @example
 *   const [first, ...then] = route.deployments.rank(request.user); // same user, same deployment while it is available
 */
export class DeploymentSet<Route> {
  constructor(
    readonly strategy: RoutingStrategy,
    readonly members: readonly DeploymentMember<Route>[],
    private readonly breakerOpen: (providerId: string) => boolean,
    private readonly random: () => number = Math.random,
  ) {}

  /** The deployments that may serve now, best first; `stickyKey` picks the first by rendezvous hashing. */
  rank(stickyKey?: string): DeploymentMember<Route>[] {
    const ready = this.members.filter(
      (member) => member.deployment.available() && !this.breakerOpen(member.deployment.provider.id),
    );
    if (ready.length <= 1) return ready;
    const first = stickyKey ? stickyChoice(ready, stickyKey) : this.choose(ready);
    const score = this.score;
    const rest = ready.filter((member) => member !== first);
    rest.sort(
      score ? (a, b) => score(a.deployment) - score(b.deployment) : (a, b) => b.deployment.weight - a.deployment.weight,
    );
    rest.unshift(first);
    return rest;
  }

  /** The strategy's measure, lower is better; none for `weighted`, which draws by weight alone. */
  private get score(): ((deployment: RouteDeployment) => number) | undefined {
    switch (this.strategy) {
      case 'weighted':
        return undefined;
      case 'least_busy':
        return (deployment) => deployment.inFlight;
      // A deployment with no answer yet goes first, so every one gets measured.
      case 'lowest_latency':
        return (deployment) => deployment.latencyMs() ?? -1;
      // LiteLLM's usage-based-routing-v2: the fewest tokens this minute, in the same unit whether a
      // deployment has limits or not (its rpm/tpm only decide whether it may serve at all).
      case 'usage_based':
        return (deployment) => deployment.minuteUsage().tokens;
    }
  }

  /** The strategy's pick: the best score, ties drawn by weight. */
  private choose(ready: DeploymentMember<Route>[]): DeploymentMember<Route> {
    const score = this.score;
    if (!score) return this.draw(ready);
    let best = Infinity;
    let tied: DeploymentMember<Route>[] = [];
    for (const member of ready) {
      const value = score(member.deployment);
      if (value < best) {
        best = value;
        tied = [member];
      } else if (value === best) tied.push(member);
    }
    return tied.length === 1 ? tied[0]! : this.draw(tied);
  }

  /** Weighted random; uniform when every weight is 0. */
  private draw(members: DeploymentMember<Route>[]): DeploymentMember<Route> {
    let total = 0;
    for (const member of members) total += member.deployment.weight;
    if (total <= 0) return members[Math.floor(this.random() * members.length)]!;
    let point = this.random() * total;
    for (const member of members) {
      point -= member.deployment.weight;
      if (point < 0) return member;
    }
    return members[members.length - 1]!;
  }
}

/**
 * Weighted rendezvous hashing: each deployment scores `weight / -ln(u)` with `u` a hash of the key
 * and the deployment, the highest wins. A key keeps its deployment while that one is available,
 * keys spread by weight, and when one deployment leaves only its keys move.
 */
function stickyChoice<Route>(ready: DeploymentMember<Route>[], key: string): DeploymentMember<Route> {
  let best = ready[0]!;
  let bestScore = -1;
  for (const member of ready) {
    const unit = (hash32(`${key}\u0000${member.deployment.id}`) + 0.5) / 4_294_967_296;
    const score = member.deployment.weight / -Math.log(unit);
    if (score > bestScore) {
      bestScore = score;
      best = member;
    }
  }
  return best;
}

/** FNV-1a over the UTF-16 units with murmur3's finaliser, so near-identical keys land far apart. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
