import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * Whose stored resources (files, batches, agents) a caller may see: an Owner key sees all of them,
 * any other key only those it created (rows with its id in `key_id`). Rows from before ownership
 * was recorded have no `key_id` and are visible to Owners only.
 */
export interface OwnerScope {
  /** The calling key; it owns what it creates. */
  keyId: string | null;
  seesAll: boolean;
}

/** A condition on `key_id` for `scope`, or undefined when it sees every row. */
export function ownerCondition(scope: OwnerScope | undefined): RawBuilder<SqlBool> | undefined {
  if (!scope || scope.seesAll) return undefined;
  return scope.keyId === null ? sql<SqlBool>`1 = 0` : sql<SqlBool>`key_id = ${scope.keyId}`;
}

/** Whether a row with owner `keyId` is inside `scope`. */
export function inScope(keyId: string | null, scope: OwnerScope | undefined): boolean {
  return !scope || scope.seesAll || (scope.keyId !== null && keyId === scope.keyId);
}
