import type { ModelConfig } from '../wire/model-route-schema.js';
import { rows, type Database } from './database.js';

/** A route the console changed: its new definition, or a removal of a config-file route. */
export type RouteOverride = { id: string; deleted: false; route: ModelConfig } | { id: string; deleted: true };

interface StoredOverride {
  id: string;
  route: string | null;
  deleted: number;
}

/** Model routes made in the console, kept over the config file's across restarts. */
export class SettingsRepository {
  constructor(private readonly db: Database) {}

  routeOverrides(): RouteOverride[] {
    return rows<StoredOverride>(this.db.prepare('SELECT id, route, deleted FROM route_overrides ORDER BY updated_at, id').all()).map((stored) =>
      stored.deleted === 1 || stored.route === null ? { id: stored.id, deleted: true } : { id: stored.id, deleted: false, route: JSON.parse(stored.route) as ModelConfig },
    );
  }

  saveRoute(route: ModelConfig): void {
    this.upsert(route.id, JSON.stringify(route), 0);
  }

  /** Remembers that a config-file route was removed, so it stays removed after a restart. */
  markRouteDeleted(id: string): void {
    this.upsert(id, null, 1);
  }

  /** Forgets the console's change: the config file's route (if any) applies again. */
  clearRoute(id: string): void {
    this.db.prepare('DELETE FROM route_overrides WHERE id = ?').run(id);
  }

  private upsert(id: string, route: string | null, deleted: number): void {
    this.db
      .prepare(
        `INSERT INTO route_overrides (id, route, deleted, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET route = excluded.route, deleted = excluded.deleted, updated_at = excluded.updated_at`,
      )
      .run(id, route, deleted, Date.now());
  }
}
