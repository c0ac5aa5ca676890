/** Wire types of the gateway's public API that several features read. */
export type Capability =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'ocr'
  | 'documents'
  | 'vision'
  | 'image_generation'
  | 'transcription';

export type ModelState = 'cold' | 'loading' | 'ready' | 'unavailable';

export interface GatewayModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  capabilities: Capability[];
  aliases: string[];
  archived: boolean;
  provider: string;
  state: ModelState;
  pricing?: { input_per_million: number; output_per_million: number; currency: string };
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

export interface AccountSnapshot {
  user: { full_name: string };
  api_key: { prefix: string; name?: string; role?: 'owner' | 'member' };
  balance: { amount: number; currency: string; limit?: number };
  usage: { total_requests: number; total_tokens?: number; total_cost?: number };
}
