import type { MenuItemConstructorOptions } from 'electron';

export interface AppMenuActions {
  isMac: boolean;
  appName: string;
  openDataFolder(): void;
  openApiDocs(): void;
}

/** The application menu: standard edit/view/window roles plus shortcuts to the data folder and API docs. */
export function buildAppMenu({
  isMac,
  appName,
  openDataFolder,
  openApiDocs,
}: AppMenuActions): MenuItemConstructorOptions[] {
  const macAppMenu: MenuItemConstructorOptions[] = isMac
    ? [
        {
          label: appName,
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];
  return [
    ...macAppMenu,
    {
      label: 'File',
      submenu: [
        { label: 'Open Data Folder', click: openDataFolder },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: 'Gateway API Reference', click: openApiDocs }] },
  ];
}
