import type { SettingsRepository } from '../../store/settings-repository.js';
import type { McpServerConfig } from '../../wire/mcp-server-schemas.js';
import { ConfigError } from '../../config/config-error.js';
import { SecretBox, UnreadableSecretError } from '../settings/secret-box.js';

const KIND = 'mcp_server';
/** The fields whose values are secrets: each value is stored sealed. */
const SECRET_FIELDS = ['env', 'headers'] as const;

/**
 * The MCP servers the console added or changed, as documents in `gateway_settings` (kind
 * `mcp_server`; null: a config-file server removed). The values of `env` and `headers` are sealed
 * with the gateway's secret key, like providers' API keys.
 */
export class McpServerStore {
  constructor(
    private readonly repository: SettingsRepository,
    private readonly secrets: { box: SecretBox; source: string },
  ) {}

  async read(): Promise<Map<string, McpServerConfig | null>> {
    const servers = new Map<string, McpServerConfig | null>();
    for (const { id, value } of await this.repository.documents(KIND)) {
      if (value === null) {
        servers.set(id, null);
        continue;
      }
      const config = { ...value, id } as McpServerConfig;
      for (const field of SECRET_FIELDS) {
        const sealed = config[field];
        if (sealed) config[field] = this.mapValues(sealed, (stored) => this.open(id, stored));
      }
      servers.set(id, config);
    }
    return servers;
  }

  async save(config: McpServerConfig): Promise<void> {
    const { id, ...document } = config;
    for (const field of SECRET_FIELDS) {
      const plain = document[field];
      if (plain) document[field] = this.mapValues(plain, (value) => this.secrets.box.seal(value));
    }
    await this.repository.saveDocument(KIND, id, document);
  }

  /** Remembers that a config-file server was removed, so it stays removed after a restart. */
  async markRemoved(id: string): Promise<void> {
    await this.repository.saveDocument(KIND, id, null);
  }

  async clear(id: string): Promise<void> {
    await this.repository.clearDocument(KIND, id);
  }

  private mapValues(values: Record<string, string>, change: (value: string) => string): Record<string, string> {
    return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, change(value)]));
  }

  private open(serverId: string, stored: string): string {
    try {
      return this.secrets.box.open(stored);
    } catch (error) {
      if (!(error instanceof UnreadableSecretError)) throw error;
      throw new ConfigError(
        `A stored secret of the MCP server "${serverId}" cannot be decrypted with this gateway's secret key (${this.secrets.source}): ${error.message}. Start with the key it was stored under, or delete the server's row (kind mcp_server) in gateway_settings and add it again.`,
      );
    }
  }
}
