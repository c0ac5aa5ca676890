export interface NavItem {
  path: string;
  label: string;
  icon: string;
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
      { path: '/requests', label: 'Request log', icon: '☰' },
      { path: '/models', label: 'Models', icon: '◈' },
      { path: '/batches', label: 'Batches', icon: '≣' },
      { path: '/agents', label: 'Agents', icon: '⚙' },
      { path: '/keys', label: 'Keys', icon: '⚷' },
      { path: '/account', label: 'Account', icon: '◉' },
    ],
  },
];
