/**
 * The badge for what the gateway reports as source `config`: the config file when the gateway has
 * one, else the built-in defaults (the gateway reports both as `config`).
 */
export const fileSourceLabel = (configPath: string | null): string => (configPath ? 'config file' : 'built-in');
