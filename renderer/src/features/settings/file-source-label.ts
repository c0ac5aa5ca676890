/**
 * The badge for what the gateway reports as source `config`: the config file when the gateway has
 * one, else the built-in defaults (server settings, and providers and routes from a gateway that
 * does not report `built_in`).
 */
export const fileSourceLabel = (configPath: string | null): string => (configPath ? 'config file' : 'built-in');

/** The badge of a provider or a model route: where its definition in effect comes from. */
export function entrySourceLabel(
  entry: { source: 'config' | 'console' | 'built_in'; in_config: boolean; removed?: boolean },
  configPath: string | null,
): string {
  if (entry.removed) return 'removed here';
  if (entry.source === 'built_in') return 'built-in';
  if (entry.source === 'config') return fileSourceLabel(configPath);
  return entry.in_config ? 'edited here' : 'added here';
}
