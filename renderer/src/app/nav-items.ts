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
      { path: '/agents', label: 'Agents', icon: '⚙' },
      { path: '/keys', label: 'Keys', icon: '⚷', ownerOnly: true },
      { path: '/account', label: 'Account', icon: '◉' },
      { path: '/status', label: 'Status', icon: '◍' },
      { path: '/settings', label: 'Settings', icon: '⚒', ownerOnly: true },
    ],
  },
];

/** The navigation a key of this role may use (unknown role: everything, until the account has loaded). */
export function navGroupsFor(role: string | null | undefined): NavGroup[] {
  if (role !== 'member') return NAV_GROUPS;
  return NAV_GROUPS.map((group) => ({ ...group, items: group.items.filter((item) => !item.ownerOnly) })).filter((group) => group.items.length > 0);
}
