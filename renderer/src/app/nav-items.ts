export interface NavItem {
  path: string;
  label: string;
  icon: string;
  /** Pages whose API answers 403 to a Member key: not offered to Members. */
  ownerOnly?: boolean;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

export const NAV_GROUPS: NavGroup[] = [
  {
    label: 'Playgrounds',
    items: [
      { path: '/chat', label: 'Chat', icon: '❝' },
      { path: '/completions', label: 'Completions', icon: '✎' },
      { path: '/embeddings', label: 'Embeddings', icon: '⊞' },
    ],
  },
  {
    label: 'Documents & media',
    items: [
      { path: '/ocr', label: 'OCR', icon: '▣' },
      { path: '/documents', label: 'Documents', icon: '▤' },
      { path: '/images', label: 'Images', icon: '▨' },
      { path: '/transcription', label: 'Transcription', icon: '♪' },
    ],
  },
  {
    label: 'Manage',
    items: [
      { path: '/requests', label: 'Request log', icon: '☰', ownerOnly: true },
      { path: '/models', label: 'Models', icon: '◈' },
      { path: '/batches', label: 'Batches', icon: '≣' },
      { path: '/evals', label: 'Evals', icon: '✓' },
      { path: '/agents', label: 'Agents', icon: '⚙' },
      { path: '/mcp', label: 'MCP servers', icon: '⊶', ownerOnly: true },
      { path: '/keys', label: 'Keys', icon: '⚷', ownerOnly: true },
      { path: '/account', label: 'Account', icon: '◉' },
      { path: '/status', label: 'Status', icon: '◍' },
      { path: '/settings', label: 'Settings', icon: '⚒', ownerOnly: true },
    ],
  },
];

/** A nav entry: a link, or (role not known yet) a placeholder where an Owner-only link may come. */
export type NavEntry = NavItem & { placeholder?: true };
export interface NavEntryGroup {
  label: string;
  items: NavEntry[];
}

/**
 * The navigation a key of this role may use. `'loading'` (the account has not answered yet): the
 * Owner-only links are placeholders, so a Member never glimpses them and an Owner's nav does not
 * jump. A role the gateway does not report (`null`, `undefined`): everything, as before roles.
 */
export function navGroupsFor(role: string | null | undefined | 'loading'): NavEntryGroup[] {
  if (role === 'loading')
    return NAV_GROUPS.map((group) => ({
      ...group,
      items: group.items.map((item) => (item.ownerOnly ? { ...item, placeholder: true as const } : item)),
    }));
  if (role !== 'member') return NAV_GROUPS;
  return NAV_GROUPS.map((group) => ({ ...group, items: group.items.filter((item) => !item.ownerOnly) })).filter(
    (group) => group.items.length > 0,
  );
}
