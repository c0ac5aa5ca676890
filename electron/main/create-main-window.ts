import { installConsoleAuth, type ConsoleAuth } from './console-auth.js';
import type { NavigationEventLike, ShellLike, WindowFactory, WindowLike } from './electron-surface.js';
import { decideNavigation, decidePermission } from './url-policy.js';

export interface MainWindowInput {
  newWindow: WindowFactory;
  shell: ShellLike;
  preloadPath: string;
  gatewayUrl: string;
  /** The session token the page holds and the key it stands for on the gateway's requests. */
  consoleAuth: Omit<ConsoleAuth, 'gatewayUrl'>;
  /** Where a link the policy sends outside goes; failures are only logged. */
  onError?(message: string): void;
}

/** The console window: locked down (house rule 7), loading `<gatewayUrl>/ui/`. */
export function createMainWindow({
  newWindow,
  shell,
  preloadPath,
  gatewayUrl,
  consoleAuth,
  onError,
}: MainWindowInput): WindowLike {
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
    shell
      .openExternal(url)
      .catch((error: Error) => onError?.(`could not open ${url} in the browser: ${error.message}`));
  };

  window.webContents.on('will-navigate', (event, url) => {
    const decision = decideNavigation(url, gatewayUrl);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-external') openOutside(url);
  });
  // A server redirect in the main frame gets the will-navigate policy; a frame (the console has none)
  // may only show console pages and never opens the browser.
  window.webContents.on('will-redirect', (event: NavigationEventLike) => {
    const decision = decideNavigation(event.url, gatewayUrl);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-external' && event.isMainFrame) openOutside(event.url);
  });
  window.webContents.on('will-frame-navigate', (event: NavigationEventLike) => {
    // Main-frame navigations also arrive as will-navigate, handled above.
    if (event.isMainFrame) return;
    if (decideNavigation(event.url, gatewayUrl) !== 'allow') event.preventDefault();
  });
  installConsoleAuth(window.webContents.session.webRequest, { gatewayUrl, ...consoleAuth });
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
  void window
    .loadURL(`${gatewayUrl}/ui/`)
    .catch((error: Error) => onError?.(`could not load the console: ${error.message}`));
  return window;
}
