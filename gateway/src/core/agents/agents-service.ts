import type { AgentConfiguration, AgentRecord, AgentsRepository } from '../../store/agents-repository.js';

export type { AgentRecord };
import type { OwnerScope } from '../../store/owner-scope.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newId } from '../ids/ids.js';
import { functionToolsOnly } from './agent-tools.js';

export interface NewAgent {
  name: string;
  model: string;
  instructions?: string | null;
  description?: string | null;
  tools?: { type: string }[];
}

export type AgentChanges = Partial<NewAgent>;

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * Agents: a named chat configuration (model, instructions, function tools) owned by the key that made
 * it. Every update makes a new version and keeps the earlier ones readable.
 */
export class AgentsService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly models: Pick<ModelRegistry, 'resolve'>,
    private readonly now: () => number = Date.now,
  ) {}

  create(fields: NewAgent, owner: OwnerScope): AgentRecord {
    this.models.resolve(fields.model, 'chat');
    const created = seconds(this.now());
    const agent: AgentRecord = {
      id: newId('ag_'),
      name: fields.name,
      model: fields.model,
      instructions: fields.instructions ?? null,
      description: fields.description ?? null,
      tools: functionToolsOnly(fields.tools ?? []),
      created_at: created,
      updated_at: created,
      version: 0,
      history: [],
      key_id: owner.keyId,
    };
    this.agents.insert(agent);
    return agent;
  }

  list(limit: number, after: string | undefined, scope: OwnerScope): AgentRecord[] {
    return this.agents.list(limit, after, scope);
  }

  /** The agent; 404 when it does not exist or is outside `scope`. */
  get(id: string, scope: OwnerScope): AgentRecord {
    const agent = this.agents.get(id, scope);
    if (!agent) throw new GatewayError(404, 'agent_not_found', `No agent with id "${id}".`, { param: 'agent_id' });
    return agent;
  }

  /** Applies `changes` as the agent's next version; the current one joins its history. */
  update(id: string, changes: AgentChanges, scope: OwnerScope): AgentRecord {
    const agent = this.get(id, scope);
    if (changes.model) this.models.resolve(changes.model, 'chat');
    const tools = changes.tools === undefined ? agent.tools : functionToolsOnly(changes.tools);
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as AgentChanges;
    const next: AgentRecord = {
      ...agent,
      ...defined,
      tools,
      instructions: changes.instructions === undefined ? agent.instructions : changes.instructions,
      description: changes.description === undefined ? agent.description : changes.description,
      version: agent.version + 1,
      updated_at: seconds(this.now()),
      history: [...agent.history, { ...configurationOf(agent), updated_at: agent.updated_at ?? agent.created_at }],
    };
    this.agents.replace(next);
    return next;
  }

  delete(id: string, scope: OwnerScope): void {
    this.get(id, scope);
    this.agents.delete(id);
  }

  /** Every version of the agent, newest first, each as the agent was then. */
  versions(id: string, scope: OwnerScope): AgentRecord[] {
    const agent = this.get(id, scope);
    return [agent, ...agent.history.map((earlier, version) => ({ ...agent, ...earlier, version })).reverse()];
  }

  /** The agent as it was at `version` (the current one when absent); 404 for a version it never had. */
  atVersion(id: string, version: number | undefined, scope: OwnerScope): AgentRecord {
    const agent = this.get(id, scope);
    if (version === undefined || version === agent.version) return agent;
    const earlier = agent.history[version];
    if (!earlier) throw new GatewayError(404, 'agent_version_not_found', `Agent "${id}" has no version ${version}; its versions are 0 to ${agent.version}.`, { param: 'version' });
    return { ...agent, ...earlier, version };
  }
}

function configurationOf(agent: AgentRecord): AgentConfiguration {
  return { name: agent.name, model: agent.model, instructions: agent.instructions, description: agent.description, tools: agent.tools };
}
