import type { ApiKeyRecord } from '../../store/keys-repository.js';
import type { OwnerScope } from '../../store/owner-scope.js';

export type { OwnerScope };

/**
 * The scope of a request's key: an Owner sees every stored resource, a Member only its own. A
 * resource outside the scope answers 404, as if it did not exist, so ids reveal nothing.
 */
export function ownerScope(key: Pick<ApiKeyRecord, 'id' | 'role'> | null): OwnerScope {
  return { keyId: key?.id ?? null, seesAll: key?.role === 'owner' };
}
