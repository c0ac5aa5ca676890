import { row, type Database } from './database.js';

/** A stored Responses API response: the response object, the input items it was given, and the items of the conversation before them. */
export interface StoredResponseRecord {
  id: string;
  created_at: number;
  key_id: string | null;
  /** True when an upstream that speaks the Responses API produced it (and can continue it itself). */
  native: boolean;
  response: Record<string, unknown>;
  input_items: Record<string, unknown>[];
  context_items: Record<string, unknown>[];
}

interface StoredRow {
  id: string;
  created_at: number;
  key_id: string | null;
  native: number;
  response: string;
  input_items: string;
  context_items: string;
}

export class ResponsesRepository {
  constructor(private readonly db: Database) {}

  insert(record: StoredResponseRecord): void {
    this.db
      .prepare('INSERT INTO responses (id, created_at, key_id, native, response, input_items, context_items) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(record.id, record.created_at, record.key_id, record.native ? 1 : 0, JSON.stringify(record.response), JSON.stringify(record.input_items), JSON.stringify(record.context_items));
  }

  get(id: string): StoredResponseRecord | undefined {
    const stored = row<StoredRow>(this.db.prepare('SELECT * FROM responses WHERE id = ?').get(id));
    if (!stored) return undefined;
    return {
      ...stored,
      native: stored.native === 1,
      response: JSON.parse(stored.response) as Record<string, unknown>,
      input_items: JSON.parse(stored.input_items) as Record<string, unknown>[],
      context_items: JSON.parse(stored.context_items) as Record<string, unknown>[],
    };
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM responses WHERE id = ?').run(id).changes > 0;
  }
}
