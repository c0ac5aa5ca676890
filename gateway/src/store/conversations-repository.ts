import { row, rows, type Database } from './database.js';
import { newestFirst } from './newest-first.js';
import { inScope, ownerCondition, type OwnerScope } from './owner-scope.js';

/** One entry of a conversation, in Mistral's conversations wire form (`message.input`, `message.output`, `function.call`, `function.result`). */
export type ConversationEntry = Record<string, unknown> & { id: string; type: string };

export interface ConversationRecord {
  id: string;
  key_id: string | null;
  /** Set when the conversation talks to an agent; `model`, `instructions` and `tools` are then the agent's at `agent_version`. */
  agent_id: string | null;
  agent_version: number | null;
  model: string;
  instructions: string | null;
  tools: unknown[];
  name: string | null;
  description: string | null;
  metadata: Record<string, unknown> | null;
  entries: ConversationEntry[];
  created_at: number;
  updated_at: number;
}

type StoredConversation = Omit<ConversationRecord, 'tools' | 'metadata' | 'entries'> & { tools: string; metadata: string | null; entries: string };

const fromStored = (stored: StoredConversation): ConversationRecord => ({
  ...stored,
  tools: JSON.parse(stored.tools) as unknown[],
  metadata: stored.metadata === null ? null : (JSON.parse(stored.metadata) as Record<string, unknown>),
  entries: JSON.parse(stored.entries) as ConversationEntry[],
});

const toStored = (record: ConversationRecord) => ({ ...record, tools: JSON.stringify(record.tools), metadata: record.metadata === null ? null : JSON.stringify(record.metadata), entries: JSON.stringify(record.entries) });

export class ConversationsRepository {
  constructor(private readonly db: Database) {}

  insert(record: ConversationRecord): void {
    this.db
      .prepare(
        `INSERT INTO conversations (id, key_id, agent_id, agent_version, model, instructions, tools, name, description, metadata, entries, created_at, updated_at)
         VALUES (@id, @key_id, @agent_id, @agent_version, @model, @instructions, @tools, @name, @description, @metadata, @entries, @created_at, @updated_at)`,
      )
      .run(toStored(record));
  }

  get(id: string, scope?: OwnerScope): ConversationRecord | undefined {
    const stored = row<StoredConversation>(this.db.prepare('SELECT * FROM conversations WHERE id = ?').get(id));
    return stored && inScope(stored.key_id, scope) ? fromStored(stored) : undefined;
  }

  list(limit: number, offset: number, scope?: OwnerScope): ConversationRecord[] {
    return rows<StoredConversation>(newestFirst(this.db, 'conversations', limit + offset, undefined, [ownerCondition(scope)]))
      .slice(offset)
      .map(fromStored);
  }

  setEntries(id: string, entries: ConversationEntry[], updatedAt: number): void {
    this.db.prepare('UPDATE conversations SET entries = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(entries), updatedAt, id);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM conversations WHERE id = ?').run(id).changes > 0;
  }
}
