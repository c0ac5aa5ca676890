import type { CamelCase } from '../../config/camel-cased.js';
import type { ServerConfig } from '../../config/config-schema.js';
import type { ServerSettings } from '../../config/file-settings.js';
import type { ServerChange, SettingSource } from '../../wire/settings-schemas.js';

export const EDITABLE_SERVER_SETTINGS = [
  'cors_origins',
  'allowed_hosts',
  'request_log_bodies',
  'request_log_retention_days',
  'trace_content',
] as const;
export type EditableServerSetting = (typeof EDITABLE_SERVER_SETTINGS)[number];

/** Server settings the console changed; an absent field means the config file's value applies. */
export type ServerOverrides = Pick<ServerConfig, EditableServerSetting>;

/** The server settings the console edits, as they apply now. */
export type LiveServerSettings = Pick<ServerSettings, CamelCase<EditableServerSetting>>;

export function liveServerSettings(file: ServerSettings, overrides: ServerOverrides): LiveServerSettings {
  return {
    corsOrigins: overrides.cors_origins ?? file.corsOrigins,
    allowedHosts: overrides.allowed_hosts ?? file.allowedHosts,
    requestLogBodies: overrides.request_log_bodies ?? file.requestLogBodies,
    requestLogRetentionDays: overrides.request_log_retention_days ?? file.requestLogRetentionDays,
    traceContent: overrides.trace_content ?? file.traceContent,
  };
}

export function settingSources(overrides: ServerOverrides): Record<EditableServerSetting, SettingSource> {
  return Object.fromEntries(
    EDITABLE_SERVER_SETTINGS.map((name) => [name, overrides[name] === undefined ? 'config' : 'console']),
  ) as Record<EditableServerSetting, SettingSource>;
}

/** The overrides after a change: null fields are dropped, so the file's value applies again. */
export function applyChange(overrides: ServerOverrides, change: ServerChange): ServerOverrides {
  const next: Record<string, unknown> = { ...overrides };
  for (const name of EDITABLE_SERVER_SETTINGS) {
    const value = change[name];
    if (value === null) delete next[name];
    else if (value !== undefined)
      next[name] = name === 'cors_origins' || name === 'allowed_hosts' ? [...new Set(value as string[])] : value;
  }
  return next as ServerOverrides;
}
