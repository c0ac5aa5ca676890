import { row, rows, type Database } from './database.js';
import { newestFirst } from './newest-first.js';

export interface AgentRecord {
  id: string;
  name: string;
  model: string;
  instructions: string | null;
  description: string | null;
  tools: unknown[];
  created_at: number;
}

type StoredAgent = Omit<AgentRecord, 'tools'> & { tools: string };

const fromStored = (stored: StoredAgent): AgentRecord => ({ ...stored, tools: JSON.parse(stored.tools) as unknown[] });

export class AgentsRepository {
  constructor(private readonly db: Database) {}

  insert(record: AgentRecord): void {
    this.db
      .prepare('INSERT INTO agents (id, name, model, instructions, description, tools, created_at) VALUES (@id, @name, @model, @instructions, @description, @tools, @created_at)')
      .run({ ...record, tools: JSON.stringify(record.tools) });
  }

  get(id: string): AgentRecord | undefined {
    const stored = row<StoredAgent>(this.db.prepare('SELECT * FROM agents WHERE id = ?').get(id));
    return stored ? fromStored(stored) : undefined;
  }

  list(limit: number, after?: string): AgentRecord[] {
    return rows<StoredAgent>(newestFirst(this.db, 'agents', limit, after ? this.get(after) : undefined)).map(fromStored);
  }

  update(id: string, changes: Partial<Omit<AgentRecord, 'id' | 'created_at'>>): void {
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
