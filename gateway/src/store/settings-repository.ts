import type { ModelConfig } from '../wire/model-route-schema.js';
import type { Database } from './database.js';

/** A route the console changed: its new definition, or a removal of a config-file route. */
export type RouteOverride = { id: string; deleted: false; route: ModelConfig } | { id: string; deleted: true };

/** A kind of console setting kept as JSON documents: providers and MCP servers by id, and the server settings (id ''). */
export type SettingKind = 'provider' | 'server' | 'mcp_server';

/** A stored setting: its document, or null when the console removed a config-file entry. */
export interface SettingDocument {
  id: string;
  value: Record<string, unknown> | null;
}

/** Model routes and other settings made in the console, kept over the config file's across restarts. */
export class SettingsRepository {
  constructor(private readonly db: Database) {}

  async routeOverrides(): Promise<RouteOverride[]> {
    const stored = await this.db.query
      .selectFrom('route_overrides')
      .select(['id', 'route', 'deleted'])
      .orderBy('updated_at')
      .orderBy('id')
      .execute();
    return stored.map((row): RouteOverride =>
      Number(row.deleted) === 1 || row.route === null
        ? { id: row.id, deleted: true }
        : { id: row.id, deleted: false, route: JSON.parse(row.route) as ModelConfig },
    );
  }

  async saveRoute(route: ModelConfig): Promise<void> {
    await this.upsert(route.id, JSON.stringify(route), 0);
  }

  /** Remembers that a config-file route was removed, so it stays removed after a restart. */
  async markRouteDeleted(id: string): Promise<void> {
    await this.upsert(id, null, 1);
  }

  /** Forgets the console's change: the config file's route (if any) applies again. */
  async clearRoute(id: string): Promise<void> {
    await this.db.query.deleteFrom('route_overrides').where('id', '=', id).execute();
  }

  async documents(kind: SettingKind): Promise<SettingDocument[]> {
    const stored = await this.db.query
      .selectFrom('gateway_settings')
      .select(['id', 'value'])
      .where('kind', '=', kind)
      .orderBy('updated_at')
      .orderBy('id')
      .execute();
    return stored.map((row) => ({
      id: row.id,
      value: row.value === null ? null : (JSON.parse(row.value) as Record<string, unknown>),
    }));
  }

  /** Stores `value` under (kind, id); null remembers that a config-file entry was removed. */
  async saveDocument(kind: SettingKind, id: string, value: object | null): Promise<void> {
    const changes = { value: value === null ? null : JSON.stringify(value), updated_at: Date.now() };
    await this.db.query
      .insertInto('gateway_settings')
      .values({ kind, id, ...changes })
      .onConflict((conflict) => conflict.columns(['kind', 'id']).doUpdateSet(changes))
      .execute();
  }

  /** Rewrites a stored document in place (same position in the order), e.g. to encrypt what was stored in plain text. */
  async rewriteDocument(kind: SettingKind, id: string, value: object): Promise<void> {
    await this.db.query
      .updateTable('gateway_settings')
      .set({ value: JSON.stringify(value) })
      .where('kind', '=', kind)
      .where('id', '=', id)
      .execute();
  }

  async clearDocument(kind: SettingKind, id: string): Promise<void> {
    await this.db.query.deleteFrom('gateway_settings').where('kind', '=', kind).where('id', '=', id).execute();
  }

  private async upsert(id: string, route: string | null, deleted: number): Promise<void> {
    const changes = { route, deleted, updated_at: Date.now() };
    await this.db.query
      .insertInto('route_overrides')
      .values({ id, ...changes })
      .onConflict((conflict) => conflict.column('id').doUpdateSet(changes))
      .execute();
  }
}
