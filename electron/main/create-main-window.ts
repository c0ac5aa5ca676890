import type { ShellLike, WindowFactory, WindowLike } from './electron-surface.js';
import { decideNavigation, decidePermission } from './url-policy.js';

export interface MainWindowInput {
  newWindow: WindowFactory;
  shell: ShellLike;
  preloadPath: string;
  gatewayUrl: string;
  /** Where a link the policy sends outside goes; failures are only logged. */
  onError?(message: string): void;
}

/** The console window: locked down (house rule 7), loading `<gatewayUrl>/ui/`. */
export function createMainWindow({ newWindow, shell, preloadPath, gatewayUrl, onError }: MainWindowInput): WindowLike {
  const window = newWindow({
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'Switchyard',
    backgroundColor: '#111318',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });

  const openOutside = (url: string) => {
    shell.openExternal(url).catch((error: Error) => onError?.(`could not open ${url} in the browser: ${error.message}`));
  };

  window.webContents.on('will-navigate', (event, url) => {
    const decision = decideNavigation(url, gatewayUrl);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-external') openOutside(url);
  });
  // No new windows, ever: web links go to the system browser instead.
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (decideNavigation(url, gatewayUrl) === 'open-external') openOutside(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  window.webContents.session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(decidePermission(permission, details.requestingUrl, details.mediaTypes, gatewayUrl)),
  );
  window.webContents.session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    decidePermission(permission, details.requestingUrl ?? requestingOrigin, details.mediaTypes, gatewayUrl),
  );

  window.once('ready-to-show', () => window.show());
  void window.loadURL(`${gatewayUrl}/ui/`).catch((error: Error) => onError?.(`could not load the console: ${error.message}`));
  return window;
}
