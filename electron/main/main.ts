import { BrowserWindow, Menu, app, dialog, ipcMain, safeStorage, shell } from 'electron';
import { fileURLToPath } from 'node:url';
import { buildAppMenu } from './build-app-menu.js';
import { runDesktopApp } from './run-desktop-app.js';
import { startInProcessGateway } from './start-in-process-gateway.js';

// Entry point: wires real Electron into the lifecycle logic. No top-level await here: the app's
// 'ready' event waits for this module to finish evaluating.
void runDesktopApp({
  app,
  newWindow: (options) => new BrowserWindow(options),
  shell,
  safeStorage,
  ipcMain,
  startGateway: startInProcessGateway,
  setMenu: ({ gatewayUrl, dataDir }) => {
    const template = buildAppMenu({
      isMac: process.platform === 'darwin',
      appName: app.getName(),
      openDataFolder: () => void shell.openPath(dataDir),
      openApiDocs: () => void shell.openExternal(`${gatewayUrl}/docs`),
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  },
  showError: (title, message) => dialog.showErrorBox(title, message),
  pickModelFile: async () => {
    const window = BrowserWindow.getFocusedWindow();
    const options = {
      title: 'Use a model file on this computer',
      properties: ['openFile' as const],
      filters: [{ name: 'GGUF models', extensions: ['gguf'] }],
    };
    const chosen = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
  },
  preloadPath: fileURLToPath(new URL('../preload/preload.cjs', import.meta.url)),
  env: process.env,
  platform: process.platform,
  log: (message) => console.log(`[switchyard] ${message}`),
});
