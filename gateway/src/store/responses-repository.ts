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

  /** Stores the response and indexes its input and output items by id, so later requests can refer to them (`item_reference`). */
  insert(record: StoredResponseRecord): void {
    const output = Array.isArray(record.response.output) ? (record.response.output as Record<string, unknown>[]) : [];
    const indexItem = this.db.prepare('INSERT OR IGNORE INTO response_items (id, response_id, item) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO responses (id, created_at, key_id, native, response, input_items, context_items) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(record.id, record.created_at, record.key_id, record.native ? 1 : 0, JSON.stringify(record.response), JSON.stringify(record.input_items), JSON.stringify(record.context_items));
      for (const item of [...record.input_items, ...output]) {
        if (typeof item.id === 'string') indexItem.run(item.id, record.id, JSON.stringify(item));
      }
    })();
  }

  /** A stored input or output item by its id, with the key of the response that holds it. */
  item(id: string): { item: Record<string, unknown>; key_id: string | null } | undefined {
    const found = row<{ item: string; key_id: string | null }>(
      this.db.prepare('SELECT response_items.item, responses.key_id FROM response_items JOIN responses ON responses.id = response_items.response_id WHERE response_items.id = ?').get(id),
    );
    return found ? { item: JSON.parse(found.item) as Record<string, unknown>, key_id: found.key_id } : undefined;
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
