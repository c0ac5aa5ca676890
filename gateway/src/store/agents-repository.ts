import { row, rows, type Database } from './database.js';
import { newestFirst } from './newest-first.js';
import { inScope, ownerCondition, type OwnerScope } from './owner-scope.js';

export interface AgentRecord {
  id: string;
  name: string;
  model: string;
  instructions: string | null;
  description: string | null;
  tools: unknown[];
  created_at: number;
  /** The key that created the agent (null: created before ownership was recorded; Owners only). */
  key_id: string | null;
}

type StoredAgent = Omit<AgentRecord, 'tools'> & { tools: string };

const fromStored = (stored: StoredAgent): AgentRecord => ({ ...stored, tools: JSON.parse(stored.tools) as unknown[] });

export class AgentsRepository {
  constructor(private readonly db: Database) {}

  insert(record: AgentRecord): void {
    this.db
      .prepare('INSERT INTO agents (id, name, model, instructions, description, tools, created_at, key_id) VALUES (@id, @name, @model, @instructions, @description, @tools, @created_at, @key_id)')
      .run({ ...record, tools: JSON.stringify(record.tools) });
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

  update(id: string, changes: Partial<Omit<AgentRecord, 'id' | 'created_at' | 'key_id'>>): void {
    const stored: Record<string, unknown> = { ...changes };
    if (changes.tools) stored.tools = JSON.stringify(changes.tools);
    const fields = Object.keys(stored);
    if (fields.length === 0) return;
    this.db.prepare(`UPDATE agents SET ${fields.map((field) => `${field} = @${field}`).join(', ')} WHERE id = @id`).run({ ...stored, id });
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM agents WHERE id = ?').run(id).changes > 0;
  }
}
