import type { StorageQuotaSettings } from '../../config/file-settings.js';
import type { AgentsRepository } from '../../store/agents-repository.js';
import type { BatchesRepository } from '../../store/batches-repository.js';
import type { ConversationsRepository } from '../../store/conversations-repository.js';
import type { FilesRepository } from '../../store/files-repository.js';
import { GatewayError } from '../errors/gateway-error.js';

/** What the quotas count, from the database. */
export interface StoredByKey {
  files: Pick<FilesRepository, 'storedBy'>;
  agents: Pick<AgentsRepository, 'countBy'>;
  conversations: Pick<ConversationsRepository, 'countBy'>;
  batches: Pick<BatchesRepository, 'countBy'>;
}

const MIB = 1024 * 1024;
const size = (bytes: number) =>
  bytes >= MIB ? `${+(bytes / MIB).toFixed(1)} MiB` : `${+(bytes / 1024).toFixed(1)} KiB`;

function tooMany(what: string, limit: number, setting: string, instead: string): GatewayError {
  return new GatewayError(
    403,
    `${what.replace(/ /g, '_')}_quota_exceeded`,
    `This key keeps ${limit} ${what}, the most one key may (quotas.${setting} in the config file). ${instead}, or raise quotas.${setting}.`,
    {
      type: 'insufficient_quota',
    },
  );
}

/**
 * What one key may keep stored: files (count and bytes), agents (count, and the size of each),
 * conversations (count, and the size of each) and batches not yet ended, counted from the database before each new one is stored.
 * Keyless requests (none reach these routes) are not limited. Two requests at the same moment may
 * both pass the count, so a key can go over by the requests it has in flight.
 */
export class StorageQuotas {
  constructor(
    private readonly limits: StorageQuotaSettings,
    private readonly stored: StoredByKey,
  ) {}

  /** Before storing an upload of `bytes` for `keyId`: 403 at the file count, 413 past the bytes. */
  async checkFile(keyId: string | null, bytes: number): Promise<void> {
    if (keyId === null) return;
    const { count, bytes: kept } = await this.stored.files.storedBy(keyId);
    if (count >= this.limits.filesPerKey)
      throw tooMany(
        'files',
        this.limits.filesPerKey,
        'files_per_key',
        'Delete files it no longer needs (DELETE /v1/files/{file_id})',
      );
    if (kept + bytes > this.limits.fileBytesPerKey) {
      throw new GatewayError(
        413,
        'file_storage_quota_exceeded',
        `This key keeps ${size(kept)} of files; ${size(bytes)} more would pass the ${size(this.limits.fileBytesPerKey)} one key may keep (quotas.file_storage_mb_per_key in the config file). Delete files it no longer needs (DELETE /v1/files/{file_id}), or raise quotas.file_storage_mb_per_key.`,
        { param: 'file', type: 'insufficient_quota' },
      );
    }
  }

  async checkNewAgent(keyId: string | null): Promise<void> {
    if (keyId === null) return;
    if ((await this.stored.agents.countBy(keyId)) >= this.limits.agentsPerKey)
      throw tooMany(
        'agents',
        this.limits.agentsPerKey,
        'agents_per_key',
        'Delete agents it no longer needs (DELETE /v1/agents/{agent_id})',
      );
  }

  /** An agent version's configuration (`version`, as JSON) and the agent with every version (`allVersions`): 413 past their limits. */
  checkAgentSize(version: unknown, allVersions: unknown): void {
    const versionBytes = Buffer.byteLength(JSON.stringify(version));
    if (versionBytes > this.limits.agentMaxBytes) {
      throw new GatewayError(
        413,
        'agent_too_large',
        `The agent's configuration is ${size(versionBytes)} as JSON (name, description, instructions, tools, completion_args); an agent may have at most ${size(this.limits.agentMaxBytes)} (quotas.agent_max_kb in the config file). Shorten its instructions or tools, or raise quotas.agent_max_kb.`,
        { param: 'instructions' },
      );
    }
    const allBytes = Buffer.byteLength(JSON.stringify(allVersions));
    if (allBytes > this.limits.agentAllVersionsMaxBytes) {
      throw new GatewayError(
        413,
        'agent_versions_too_large',
        `With this version the agent's configurations would be ${size(allBytes)} together, every version kept; one agent may keep at most ${size(this.limits.agentAllVersionsMaxBytes)} (quotas.agent_all_versions_max_kb in the config file). Create a new agent with this configuration, or raise quotas.agent_all_versions_max_kb.`,
        { param: null },
      );
    }
  }

  async checkNewConversation(keyId: string | null): Promise<void> {
    if (keyId === null) return;
    if ((await this.stored.conversations.countBy(keyId)) >= this.limits.conversationsPerKey) {
      throw tooMany(
        'conversations',
        this.limits.conversationsPerKey,
        'conversations_per_key',
        'Delete conversations it no longer needs (DELETE /v1/conversations/{conversation_id}), start this one with store: false',
      );
    }
  }

  /** A stored conversation's entries before a turn runs (its history and new inputs): 413 past the limit. */
  checkConversationSize(entries: unknown): void {
    const bytes = Buffer.byteLength(JSON.stringify(entries));
    if (bytes > this.limits.conversationMaxBytes) {
      throw new GatewayError(
        413,
        'conversation_too_large',
        `The conversation's entries would be ${size(bytes)} with this turn; a stored conversation may hold at most ${size(this.limits.conversationMaxBytes)} (quotas.conversation_max_mb in the config file). Start a new conversation (or restart this one from an earlier entry), send the turn with store: false, or raise quotas.conversation_max_mb.`,
        { param: 'inputs' },
      );
    }
  }

  async checkNewBatch(keyId: string | null): Promise<void> {
    if (keyId === null) return;
    const unfinished = await this.stored.batches.countBy(keyId, [
      'validating',
      'in_progress',
      'finalizing',
      'cancelling',
    ]);
    if (unfinished >= this.limits.unfinishedBatchesPerKey) {
      throw new GatewayError(
        403,
        'batch_quota_exceeded',
        `This key has ${unfinished} batches not yet ended, the most one key may have at once (quotas.unfinished_batches_per_key in the config file). Wait for some to end or cancel them (POST /v1/batches/{batch_id}/cancel), or raise quotas.unfinished_batches_per_key.`,
        { type: 'insufficient_quota' },
      );
    }
  }
}
