/** Wire types of the gateway's public API that several features read, all from its API schemas. */
import type { Static } from '@sinclair/typebox';
import type { ChatCompletion } from '../../../gateway/src/api/chat/chat-schemas';
import type { GatewayModel } from '../../../gateway/src/api/models/model-schemas';

export type { GatewayModel } from '../../../gateway/src/api/models/model-schemas';
export type {
  AccountSnapshot,
  AccountUsage,
  Balance,
  KeyRole,
  PublicKey,
  UsageGroup,
} from '../../../gateway/src/api/account/account-schemas';
export type { StoredFile } from '../../../gateway/src/api/files/file-schemas';
export type { GatewayStatus } from '../../../gateway/src/api/status/status-schemas';
export type { Health, HealthState } from '../../../gateway/src/wire/health-schema';

export type Capability = GatewayModel['capabilities'][number];

/** The token usage a chat or text completion reports. */
export type Usage = Static<typeof ChatCompletion>['usage'];

/** Every list the gateway returns: `{object: 'list', data}` (some add `has_more`). */
export interface ListResponse<T> {
  object: 'list';
  data: T[];
}
