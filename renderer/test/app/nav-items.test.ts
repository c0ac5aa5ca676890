import { describe, expect, it } from 'vitest';
import { navGroupsFor } from '../../src/app/nav-items';

const links = (role: Parameters<typeof navGroupsFor>[0]) =>
  navGroupsFor(role).flatMap((group) => group.items.filter((item) => !item.placeholder).map((item) => item.label));

describe('navGroupsFor', () => {
  it('offers no Owner-only link while the role loads, only placeholders where they may come', () => {
    const loading = navGroupsFor('loading').flatMap((group) => group.items);
    expect(links('loading')).not.toContain('Settings');
    expect(links('loading')).not.toContain('Keys');
    expect(loading.filter((item) => item.placeholder).map((item) => item.label)).toEqual([
      'Request log',
      'MCP servers',
      'Keys',
      'Settings',
    ]);
  });

  it('gives an Owner every page and a Member only theirs', () => {
    expect(links('owner')).toEqual(expect.arrayContaining(['Request log', 'Keys', 'Settings', 'Status']));
    expect(links('member')).not.toEqual(expect.arrayContaining(['Settings']));
    expect(links('owner')).toContain('MCP servers');
    expect(links('member')).not.toContain('MCP servers');
    expect(links('member')).toEqual(expect.arrayContaining(['Chat', 'Status', 'Account']));
  });
});
