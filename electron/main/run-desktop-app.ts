import { newConsoleSessionToken } from './console-auth.js';
import { readOrCreateConsoleKey, writeConsoleKey } from './console-key.js';
import { createMainWindow } from './create-main-window.js';
import type { AppLike, SafeStorageLike, ShellLike, WindowFactory, WindowLike } from './electron-surface.js';
import type { GatewayStarter, RunningGateway } from './gateway-starter.js';
import { createIpcHandlers } from './ipc/create-ipc-handlers.js';
import type { IpcMainLike } from './ipc/register-ipc-handlers.js';
import { registerIpcHandlers } from './ipc/register-ipc-handlers.js';

/** How long quitting waits for in-flight requests before giving up on a graceful close. */
const GATEWAY_CLOSE_TIMEOUT_MS = 10_000;

export interface DesktopAppDependencies {
  app: AppLike;
  newWindow: WindowFactory;
  shell: ShellLike;
  /** Encrypts the console key at rest (see readOrCreateConsoleKey). */
  safeStorage: SafeStorageLike;
  ipcMain: IpcMainLike;
  startGateway: GatewayStarter;
  /** Installs the application menu once the gateway URL and data folder are known. */
  setMenu(context: { gatewayUrl: string; dataDir: string }): void;
  showError(title: string, message: string): void;
  /** The system's open-file dialog for a .gguf model (the console's "use a file on this computer"). */
  pickModelFile(): Promise<string | null>;
  preloadPath: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  log(message: string): void;
}

/** GATEWAY_PORT, or 0 (any free port) when unset. */
export function desktopGatewayPort(env: NodeJS.ProcessEnv): number {
  const raw = env.GATEWAY_PORT?.trim();
  if (!raw) return 0;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`GATEWAY_PORT must be a port number between 0 and 65535, got ${JSON.stringify(raw)}`);
  }
  return port;
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The desktop app's lifecycle: single-instance lock, then on ready the gateway starts in-process,
 * the IPC handlers and menu are installed and the console window opens; quitting closes the
 * gateway gracefully first. Resolves once start-up has finished (or failed and asked to exit).
 */
export async function runDesktopApp(deps: DesktopAppDependencies): Promise<void> {
  const { app } = deps;
  if (!app.requestSingleInstanceLock()) {
    // Another instance runs; it gets a 'second-instance' event and shows itself.
    app.quit();
    return;
  }

  let window: WindowLike | undefined;
  let gateway: RunningGateway | undefined;
  let unregisterIpc: (() => void) | undefined;
  let closing: 'no' | 'in-progress' | 'done' = 'no';

  // The page gets this token in place of the Owner key; the window's session swaps it for the key.
  const sessionToken = newConsoleSessionToken();
  let adminKey = '';
  const openWindow = (running: RunningGateway) => {
    window = createMainWindow({
      newWindow: deps.newWindow,
      shell: deps.shell,
      preloadPath: deps.preloadPath,
      gatewayUrl: running.url,
      consoleAuth: { sessionToken, apiKey: adminKey },
      onError: deps.log,
    });
    const opened = window;
    opened.on('closed', () => {
      if (window === opened) window = undefined;
    });
  };

  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });
  app.on('activate', () => {
    if (gateway && (!window || window.isDestroyed())) openWindow(gateway);
  });
  app.on('window-all-closed', () => {
    if (deps.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (!gateway || closing === 'done') return;
    event.preventDefault();
    if (closing === 'in-progress') return;
    closing = 'in-progress';
    unregisterIpc?.();
    const running = gateway;
    withTimeout(running.close(), GATEWAY_CLOSE_TIMEOUT_MS)
      .catch((error: Error) => deps.log(`the gateway did not close cleanly: ${error.message}`))
      .finally(() => {
        closing = 'done';
        app.quit();
      });
  });

  await app.whenReady();
  try {
    const userData = deps.app.getPath('userData');
    const dataDir = deps.env.GATEWAY_DATA_DIR?.trim() || userData;
    const keyStorage = { safeStorage: deps.safeStorage, platform: deps.platform, log: deps.log };
    adminKey = await readOrCreateConsoleKey(userData, keyStorage);
    gateway = await deps.startGateway({
      env: deps.env,
      dataDir,
      adminKey,
      host: '127.0.0.1',
      port: desktopGatewayPort(deps.env),
    });
    if (gateway.consoleKey !== adminKey) {
      deps.log('the console key was revoked in the data folder: using a new Owner key');
      adminKey = gateway.consoleKey;
      await writeConsoleKey(userData, adminKey, keyStorage);
    }
    deps.log(`gateway listening on ${gateway.url}`);
    const handlers = createIpcHandlers({
      apiKey: sessionToken,
      gatewayUrl: gateway.url,
      pickModelFile: () => deps.pickModelFile(),
    });
    unregisterIpc = registerIpcHandlers(deps.ipcMain, handlers, gateway.url);
    deps.setMenu({ gatewayUrl: gateway.url, dataDir });
    openWindow(gateway);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.log(`start-up failed: ${message}`);
    deps.showError(
      'Switchyard could not start',
      `${message}\n\nThe same console also runs headless with \`npm run serve\`.`,
    );
    await gateway?.close().catch(() => undefined);
    gateway = undefined;
    app.exit(1);
  }
}
