/** Wire types of the gateway's public API that several features read; the gateway's own where it exports them. */
import type { Balance } from '../../../gateway/src/core/account/account-service';
import type { PublicKey } from '../../../gateway/src/core/account/key-service';

export type { Capability } from '../../../gateway/src/providers/contracts/capability';
export type { ModelInfo as GatewayModel } from '../../../gateway/src/core/routing/model-registry';
export type { Balance } from '../../../gateway/src/core/account/account-service';
export type { PublicKey } from '../../../gateway/src/core/account/key-service';

/** A file stored by the gateway (`/v1/files`). */
export interface StoredFile {
  id: string;
  object: 'file';
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
}

export interface ListResponse<T> {
  object: 'list';
  data: T[];
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens?: number;
  total_tokens: number;
}

export interface GatewayStatus {
  status: 'ok' | 'starting';
  response_ms: number;
  version: string;
  uptime_seconds: number;
  checks: { asr: boolean; ocr: boolean };
}

export type KeyRole = PublicKey['role'];

export interface UsageTotals {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost: number;
}

/** One row of `by_model` (key = model id) or `by_day` (key = YYYY-MM-DD). */
export interface UsageGroup extends UsageTotals {
  key: string;
}

export interface AccountUsage {
  total_requests: number;
  total_tokens: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_cost: number;
  currency: string;
  by_model: UsageGroup[];
  by_day: UsageGroup[];
}

export interface AccountSnapshot {
  user: { full_name: string; role: KeyRole };
  api_key: Pick<PublicKey, 'id' | 'prefix' | 'name' | 'role' | 'spend_limit' | 'rpm_limit'>;
  balance: Balance;
  usage: AccountUsage;
}
