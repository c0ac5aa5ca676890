import type { Database } from './database.js';
import { newestFirst } from './newest-first.js';
import { inScope, ownerCondition, type OwnerScope } from './owner-scope.js';
import type { Row } from './tables.js';

/** One entry of a conversation, in Mistral's conversations wire form (`message.input`, `message.output`, `function.call`, `function.result`). */
export type ConversationEntry = Record<string, unknown> & { id: string; type: string };

type StoredConversation = Row<'conversations'>;

/** A conversation with its JSON columns read. */
export type ConversationRecord = Omit<StoredConversation, 'tools' | 'metadata' | 'entries'> & {
  tools: unknown[];
  metadata: Record<string, unknown> | null;
  entries: ConversationEntry[];
};

const fromStored = (stored: StoredConversation): ConversationRecord => ({
  ...stored,
  tools: JSON.parse(stored.tools) as unknown[],
  metadata: stored.metadata === null ? null : (JSON.parse(stored.metadata) as Record<string, unknown>),
  entries: JSON.parse(stored.entries) as ConversationEntry[],
});

const toStored = (record: ConversationRecord): StoredConversation => ({
  ...record,
  tools: JSON.stringify(record.tools),
  metadata: record.metadata === null ? null : JSON.stringify(record.metadata),
  entries: JSON.stringify(record.entries),
});

export class ConversationsRepository {
  constructor(private readonly db: Database) {}

  async insert(record: ConversationRecord): Promise<void> {
    await this.db.query.insertInto('conversations').values(toStored(record)).execute();
  }

  async get(id: string, scope?: OwnerScope): Promise<ConversationRecord | undefined> {
    const stored = await this.db.query.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
    return stored && inScope(stored.key_id, scope) ? fromStored(stored) : undefined;
  }

  async list(limit: number, offset: number, scope?: OwnerScope): Promise<ConversationRecord[]> {
    return (await newestFirst(this.db, 'conversations', limit, undefined, [ownerCondition(scope)], offset)).map(
      fromStored,
    );
  }

  async setEntries(id: string, entries: ConversationEntry[], updatedAt: number): Promise<void> {
    await this.db.query
      .updateTable('conversations')
      .set({ entries: JSON.stringify(entries), updated_at: updatedAt })
      .where('id', '=', id)
      .execute();
  }

  /** How many conversations `keyId` keeps. */
  async countBy(keyId: string): Promise<number> {
    const row = await this.db.query
      .selectFrom('conversations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('key_id', '=', keyId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.query.deleteFrom('conversations').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
