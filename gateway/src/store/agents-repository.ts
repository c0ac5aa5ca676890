import { row, rows, type Database } from './database.js';
import { newestFirst } from './newest-first.js';
import { inScope, ownerCondition, type OwnerScope } from './owner-scope.js';

/** What an agent is configured with; each update makes a new version of it. */
export interface AgentConfiguration {
  name: string;
  model: string;
  instructions: string | null;
  description: string | null;
  tools: unknown[];
}

export interface AgentRecord extends AgentConfiguration {
  id: string;
  created_at: number;
  /** When the current version was made (null: never updated since before versions were recorded). */
  updated_at: number | null;
  /** The current version; versions 0 … version - 1 are in `history`. */
  version: number;
  /** The earlier configurations, oldest first, each with the time it was made. */
  history: (AgentConfiguration & { updated_at: number })[];
  /** The key that created the agent (null: created before ownership was recorded; Owners only). */
  key_id: string | null;
}

type StoredAgent = Omit<AgentRecord, 'tools' | 'history'> & { tools: string; history: string };

const fromStored = (stored: StoredAgent): AgentRecord => ({ ...stored, tools: JSON.parse(stored.tools) as unknown[], history: JSON.parse(stored.history) as AgentRecord['history'] });

export class AgentsRepository {
  constructor(private readonly db: Database) {}

  insert(record: AgentRecord): void {
    this.db
      .prepare(
        `INSERT INTO agents (id, name, model, instructions, description, tools, created_at, updated_at, version, history, key_id)
         VALUES (@id, @name, @model, @instructions, @description, @tools, @created_at, @updated_at, @version, @history, @key_id)`,
      )
      .run({ ...record, tools: JSON.stringify(record.tools), history: JSON.stringify(record.history) });
  }

  /** The agent, when it exists and is inside `scope` (no scope: any agent). */
  get(id: string, scope?: OwnerScope): AgentRecord | undefined {
    const stored = row<StoredAgent>(this.db.prepare('SELECT * FROM agents WHERE id = ?').get(id));
    return stored && inScope(stored.key_id, scope) ? fromStored(stored) : undefined;
  }

  /** Newest first, paged by `after` (an id), only agents inside `scope`. */
  list(limit: number, after?: string, scope?: OwnerScope): AgentRecord[] {
    return rows<StoredAgent>(newestFirst(this.db, 'agents', limit, after ? this.get(after) : undefined, [ownerCondition(scope)])).map(fromStored);
  }

  /** Stores the agent's new current version (configuration, version, updated_at, history). */
  replace(record: AgentRecord): void {
    this.db
      .prepare(
        `UPDATE agents SET name = @name, model = @model, instructions = @instructions, description = @description, tools = @tools,
         updated_at = @updated_at, version = @version, history = @history WHERE id = @id`,
      )
      .run({ ...record, tools: JSON.stringify(record.tools), history: JSON.stringify(record.history) });
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM agents WHERE id = ?').run(id).changes > 0;
  }
}
