import type { AgentAlias, AgentConfiguration, AgentRecord, AgentsRepository } from '../../store/agents-repository.js';
import { DEFAULT_CHAT_MODEL } from '../../wire/default-models.js';

export type { AgentAlias, AgentRecord };
import type { OwnerScope } from '../../store/owner-scope.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { StorageQuotas } from '../account/storage-quotas.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newOrderedId } from '../ids/ids.js';
import { agentTools } from './agent-tools.js';

export interface NewAgent {
  name: string;
  /** Absent: the default chat model, or the first chat route when that is not served. */
  model?: string;
  instructions?: string | null;
  description?: string | null;
  tools?: { type: string }[];
  /** Chat parameters every turn uses, checked by the route with chat's ranges. */
  completion_args?: Record<string, unknown> | null;
}

export type AgentChanges = Partial<NewAgent>;

const seconds = (ms: number) => Math.floor(ms / 1000);

/** A version as clients name it: a number, its digits, or an alias (a name). */
export type VersionRef = number | string | null | undefined;

/**
 * Agents: a named chat configuration (model, instructions, function tools) owned by the key that made
 * it. Every update makes a new version and keeps the earlier ones readable.
 */
export class AgentsService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly models: Pick<ModelRegistry, 'resolve' | 'resolveOrDefault'>,
    private readonly quotas: Pick<StorageQuotas, 'checkNewAgent' | 'checkAgentSize'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new agent of `owner`'s key: 403 at the key's agent count, 413 past an agent's size (quotas). */
  async create(fields: NewAgent, owner: OwnerScope): Promise<AgentRecord> {
    const model = fields.model ?? this.models.resolveOrDefault(undefined, 'chat', DEFAULT_CHAT_MODEL).id;
    if (fields.model) this.models.resolve(fields.model, 'chat');
    const created = seconds(this.now());
    const agent: AgentRecord = {
      id: newOrderedId('ag_'),
      name: fields.name,
      model,
      instructions: fields.instructions ?? null,
      description: fields.description ?? null,
      tools: agentTools(fields.tools ?? []),
      completion_args: fields.completion_args ?? {},
      created_at: created,
      updated_at: created,
      version: 0,
      history: [],
      key_id: owner.keyId,
      active_version: null,
    };
    this.quotas.checkAgentSize(configurationOf(agent), [configurationOf(agent)]);
    await this.quotas.checkNewAgent(owner.keyId);
    await this.agents.insert(agent);
    return agent;
  }

  /** Each agent as its active version, paged by `after` or past the first `offset`. */
  async list(limit: number, after: string | undefined, scope: OwnerScope, offset = 0): Promise<AgentRecord[]> {
    return (await this.agents.list(limit, after, scope, offset)).map((agent) =>
      this.viewAt(agent, agent.active_version ?? agent.version),
    );
  }

  /** The agent as stored (its newest version); 404 when it does not exist or is outside `scope`. */
  async get(id: string, scope: OwnerScope): Promise<AgentRecord> {
    const agent = await this.agents.get(id, scope);
    if (!agent) throw new GatewayError(404, 'agent_not_found', `No agent with id "${id}".`, { param: 'agent_id' });
    return agent;
  }

  /** Applies `changes` as the agent's next version, which becomes the active one; the newest so far joins the history. */
  async update(id: string, changes: AgentChanges, scope: OwnerScope): Promise<AgentRecord> {
    const agent = await this.get(id, scope);
    if (changes.model) this.models.resolve(changes.model, 'chat');
    const tools = changes.tools === undefined ? agent.tools : agentTools(changes.tools);
    const defined = Object.fromEntries(
      Object.entries(changes).filter(([, value]) => value !== undefined),
    ) as AgentChanges;
    const next: AgentRecord = {
      ...agent,
      ...defined,
      tools,
      instructions: changes.instructions === undefined ? agent.instructions : changes.instructions,
      description: changes.description === undefined ? agent.description : changes.description,
      completion_args: changes.completion_args === undefined ? agent.completion_args : (changes.completion_args ?? {}),
      version: agent.version + 1,
      updated_at: seconds(this.now()),
      history: [...agent.history, { ...configurationOf(agent), updated_at: agent.updated_at ?? agent.created_at }],
      active_version: null,
    };
    this.quotas.checkAgentSize(configurationOf(next), [...next.history, configurationOf(next)]);
    await this.agents.replace(next);
    return next;
  }

  async delete(id: string, scope: OwnerScope): Promise<void> {
    await this.get(id, scope);
    await this.agents.delete(id);
  }

  /** Every version of the agent, newest first, each as the agent was then. */
  async versions(id: string, scope: OwnerScope): Promise<AgentRecord[]> {
    const agent = await this.get(id, scope);
    return [agent, ...agent.history.map((earlier, version) => ({ ...agent, ...earlier, version })).reverse()];
  }

  /**
   * The agent as it was at `version` (a number, or an alias): the active version when absent; 404 for
   * a version it never had or an alias it does not have.
   */
  async atVersion(id: string, version: VersionRef, scope: OwnerScope): Promise<AgentRecord> {
    const agent = await this.get(id, scope);
    return this.viewAt(agent, await this.resolveVersion(agent, version));
  }

  async aliases(id: string, scope: OwnerScope): Promise<AgentAlias[]> {
    await this.get(id, scope);
    return this.agents.aliases(id);
  }

  /** Points `alias` at `version` (which must exist); an alias that exists moves. */
  async setAlias(id: string, alias: string, version: number, scope: OwnerScope): Promise<AgentAlias> {
    await this.atVersion(id, version, scope);
    if (/^\d+$/.test(alias))
      throw new GatewayError(
        422,
        'invalid_value',
        `Invalid request: an alias may not be a number ("${alias}" would read as version ${alias}).`,
        { param: 'alias' },
      );
    return this.agents.saveAlias(id, alias, version, seconds(this.now()));
  }

  async deleteAlias(id: string, alias: string, scope: OwnerScope): Promise<void> {
    await this.get(id, scope);
    if (!(await this.agents.deleteAlias(id, alias)))
      throw new GatewayError(404, 'alias_not_found', `Agent "${id}" has no version alias "${alias}".`, {
        param: 'alias',
      });
  }

  /** Mistral's "switch the active version": the version served when a request names none. Updating the agent makes its new version active. */
  async activateVersion(id: string, version: number, scope: OwnerScope): Promise<AgentRecord> {
    const agent = await this.get(id, scope);
    const active = this.viewAt(agent, version);
    await this.agents.setActiveVersion(id, version === agent.version ? null : version);
    return { ...active, active_version: version === agent.version ? null : version };
  }

  private async resolveVersion(agent: AgentRecord, given: VersionRef): Promise<number> {
    if (given === undefined || given === null) return agent.active_version ?? agent.version;
    if (typeof given === 'number' || /^\d+$/.test(given)) return Number(given);
    const aliased = await this.agents.aliasVersion(agent.id, given);
    if (aliased === undefined)
      throw new GatewayError(404, 'alias_not_found', `Agent "${agent.id}" has no version alias "${given}".`, {
        param: 'agent_version',
      });
    return aliased;
  }

  /** The agent as it was at `version`; 404 for a version it never had. */
  private viewAt(agent: AgentRecord, version: number): AgentRecord {
    if (version === agent.version) return agent;
    const earlier = agent.history[version];
    if (!Number.isInteger(version) || !earlier)
      throw new GatewayError(
        404,
        'agent_version_not_found',
        `Agent "${agent.id}" has no version ${version}; its versions are 0 to ${agent.version}.`,
        { param: 'version' },
      );
    return { ...agent, ...earlier, version };
  }
}

function configurationOf(agent: AgentRecord): AgentConfiguration {
  return {
    name: agent.name,
    model: agent.model,
    instructions: agent.instructions,
    description: agent.description,
    tools: agent.tools,
    completion_args: agent.completion_args,
  };
}
