import type { Database } from './database.js';
import type { Row } from './tables.js';

/** A stored Responses API response: the response object, the input items it was given, and the items of the conversation before them. */
export type StoredResponseRecord = Omit<Row<'responses'>, 'native' | 'response' | 'input_items' | 'context_items'> & {
  /** True when an upstream that speaks the Responses API produced it (and can continue it itself). */
  native: boolean;
  response: Record<string, unknown>;
  input_items: Record<string, unknown>[];
  context_items: Record<string, unknown>[];
};

export class ResponsesRepository {
  constructor(private readonly db: Database) {}

  /** Stores the response and indexes its input and output items by id, so later requests can refer to them (`item_reference`). */
  async insert(record: StoredResponseRecord): Promise<void> {
    const output = Array.isArray(record.response.output) ? (record.response.output as Record<string, unknown>[]) : [];
    const items = [...record.input_items, ...output].filter((item) => typeof item.id === 'string');
    await this.db.atomically([
      this.db.query
        .insertInto('responses')
        .values({
          id: record.id,
          created_at: record.created_at,
          key_id: record.key_id,
          native: record.native ? 1 : 0,
          response: JSON.stringify(record.response),
          input_items: JSON.stringify(record.input_items),
          context_items: JSON.stringify(record.context_items),
        })
        .compile(),
      ...items.map((item) =>
        this.db.query
          .insertInto('response_items')
          .values({ id: item.id as string, response_id: record.id, item: JSON.stringify(item) })
          .onConflict((conflict) => conflict.column('id').doNothing())
          .compile(),
      ),
    ]);
  }

  /** A stored input or output item by its id, with the key of the response that holds it. */
  async item(id: string): Promise<{ item: Record<string, unknown>; key_id: string | null } | undefined> {
    const found = await this.db.query
      .selectFrom('response_items')
      .innerJoin('responses', 'responses.id', 'response_items.response_id')
      .select(['response_items.item', 'responses.key_id'])
      .where('response_items.id', '=', id)
      .executeTakeFirst();
    return found ? { item: JSON.parse(found.item) as Record<string, unknown>, key_id: found.key_id } : undefined;
  }

  async get(id: string): Promise<StoredResponseRecord | undefined> {
    const stored: Row<'responses'> | undefined = await this.db.query
      .selectFrom('responses')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!stored) return undefined;
    return {
      ...stored,
      native: Number(stored.native) === 1,
      response: JSON.parse(stored.response) as Record<string, unknown>,
      input_items: JSON.parse(stored.input_items) as Record<string, unknown>[],
      context_items: JSON.parse(stored.context_items) as Record<string, unknown>[],
    };
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.query.deleteFrom('responses').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
