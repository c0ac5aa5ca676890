/** The path of one route or provider of the settings; ids are encoded as one path segment. */
export const settingsPath = (kind: 'routes' | 'providers', id: string): string =>
  `/settings/${kind}/${encodeURIComponent(id)}`;
