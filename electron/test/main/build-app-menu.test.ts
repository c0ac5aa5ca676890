import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { buildAppMenu } from '../../main/build-app-menu.js';

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])]);
}

describe('application menu', () => {
  it('offers Quit, the data folder and the API reference', () => {
    const actions = { isMac: false, appName: 'Switchyard', openDataFolder: vi.fn(), openApiDocs: vi.fn() };
    const items = flatten(buildAppMenu(actions));
    expect(items.some((item) => item.role === 'quit')).toBe(true);
    const click = (label: string) => (items.find((item) => item.label === label)?.click as () => void)();
    click('Open Data Folder');
    click('Gateway API Reference');
    expect(actions.openDataFolder).toHaveBeenCalledOnce();
    expect(actions.openApiDocs).toHaveBeenCalledOnce();
  });

  it('puts the app menu first on macOS', () => {
    const menu = buildAppMenu({
      isMac: true,
      appName: 'Switchyard',
      openDataFolder: () => undefined,
      openApiDocs: () => undefined,
    });
    expect(menu[0].label).toBe('Switchyard');
    expect(flatten([menu[0]]).some((item) => item.role === 'quit')).toBe(true);
  });
});
