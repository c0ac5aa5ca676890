import type { Database } from './database.js';
import { newestFirst } from './newest-first.js';
import { inScope, ownerCondition, type OwnerScope } from './owner-scope.js';
import type { Row } from './tables.js';

type StoredAgent = Row<'agents'>;

/** What an agent is configured with; each update makes a new version of it. */
export type AgentConfiguration = Pick<StoredAgent, 'name' | 'model' | 'instructions' | 'description'> & {
  tools: unknown[];
  /** Mistral's `completion_args`: chat parameters (temperature, max_tokens, ...) every turn uses. */
  completion_args: Record<string, unknown>;
};

/** An agent with its JSON columns read. */
export type AgentRecord = Omit<StoredAgent, 'tools' | 'completion_args' | 'history'> &
  AgentConfiguration & {
    /** The earlier configurations, oldest first, each with the time it was made. */
    history: (AgentConfiguration & { updated_at: number })[];
  };

/** A name for one of an agent's versions (times in seconds). */
export type AgentAlias = Omit<Row<'agent_aliases'>, 'agent_id'>;

/** Versions recorded before agents had completion_args had none. */
const withArgs = (version: Partial<AgentConfiguration>) => ({
  ...version,
  completion_args: version.completion_args ?? {},
});
const fromStored = (stored: StoredAgent): AgentRecord => ({
  ...stored,
  tools: JSON.parse(stored.tools) as unknown[],
  completion_args: JSON.parse(stored.completion_args) as Record<string, unknown>,
  history: (JSON.parse(stored.history) as AgentRecord['history']).map(withArgs) as AgentRecord['history'],
});
const toStored = (record: AgentRecord): StoredAgent => ({
  ...record,
  tools: JSON.stringify(record.tools),
  completion_args: JSON.stringify(record.completion_args),
  history: JSON.stringify(record.history),
});

export class AgentsRepository {
  constructor(private readonly db: Database) {}

  async insert(record: AgentRecord): Promise<void> {
    await this.db.query.insertInto('agents').values(toStored(record)).execute();
  }

  /** The agent, when it exists and is inside `scope` (no scope: any agent). */
  async get(id: string, scope?: OwnerScope): Promise<AgentRecord | undefined> {
    const stored = await this.db.query.selectFrom('agents').selectAll().where('id', '=', id).executeTakeFirst();
    return stored && inScope(stored.key_id, scope) ? fromStored(stored) : undefined;
  }

  /** Newest first, paged by `after` (an id) or past the first `offset`, only agents inside `scope`. */
  async list(limit: number, after?: string, scope?: OwnerScope, offset = 0): Promise<AgentRecord[]> {
    const from = after ? await this.get(after) : undefined;
    return (await newestFirst(this.db, 'agents', limit, from, [ownerCondition(scope)], offset)).map(fromStored);
  }

  /** Stores the agent's new current version (configuration, version, updated_at, history). */
  async replace(record: AgentRecord): Promise<void> {
    const {
      name,
      model,
      instructions,
      description,
      tools,
      completion_args,
      updated_at,
      version,
      history,
      active_version,
    } = toStored(record);
    await this.db.query
      .updateTable('agents')
      .set({
        name,
        model,
        instructions,
        description,
        tools,
        completion_args,
        updated_at,
        version,
        history,
        active_version,
      })
      .where('id', '=', record.id)
      .execute();
  }

  async setActiveVersion(id: string, version: number | null): Promise<void> {
    await this.db.query.updateTable('agents').set({ active_version: version }).where('id', '=', id).execute();
  }

  /** The agent's aliases, by name. */
  async aliases(agentId: string): Promise<AgentAlias[]> {
    return this.db.query
      .selectFrom('agent_aliases')
      .select(['alias', 'version', 'created_at', 'updated_at'])
      .where('agent_id', '=', agentId)
      .orderBy('alias')
      .execute();
  }

  async aliasVersion(agentId: string, alias: string): Promise<number | undefined> {
    const found = await this.db.query
      .selectFrom('agent_aliases')
      .select('version')
      .where('agent_id', '=', agentId)
      .where('alias', '=', alias)
      .executeTakeFirst();
    return found?.version;
  }

  /** Points `alias` at `version` (a new alias, or one moved); returns it as stored. */
  async saveAlias(agentId: string, alias: string, version: number, now: number): Promise<AgentAlias> {
    await this.db.query
      .insertInto('agent_aliases')
      .values({ agent_id: agentId, alias, version, created_at: now, updated_at: now })
      .onConflict((conflict) => conflict.columns(['agent_id', 'alias']).doUpdateSet({ version, updated_at: now }))
      .execute();
    return this.db.query
      .selectFrom('agent_aliases')
      .select(['alias', 'version', 'created_at', 'updated_at'])
      .where('agent_id', '=', agentId)
      .where('alias', '=', alias)
      .executeTakeFirstOrThrow();
  }

  async deleteAlias(agentId: string, alias: string): Promise<boolean> {
    const result = await this.db.query
      .deleteFrom('agent_aliases')
      .where('agent_id', '=', agentId)
      .where('alias', '=', alias)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** How many agents `keyId` keeps. */
  async countBy(keyId: string): Promise<number> {
    const row = await this.db.query
      .selectFrom('agents')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('key_id', '=', keyId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.query.deleteFrom('agents').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
