import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  AppLike,
  PermissionDetails,
  PreventableEvent,
  WebRequestLike,
  WindowLike,
  WindowOpenResponse,
  WindowOptions,
} from '../../main/electron-surface.js';
import type { GatewayStartInput, RunningGateway } from '../../main/gateway-starter.js';
import type { IpcInvokeEventLike, IpcMainLike } from '../../main/ipc/register-ipc-handlers.js';
import type { DesktopAppDependencies } from '../../main/run-desktop-app.js';
import { runDesktopApp } from '../../main/run-desktop-app.js';
import { useTempDir } from '../../../gateway/test/support/use-resources.js';
import { FakeSafeStorage, unavailableSafeStorage } from '../support/fake-safe-storage.js';

type EmitterListener = Parameters<EventEmitter['on']>[1];

class FakeApp extends EventEmitter implements AppLike {
  lockGranted = true;
  quitCalls = 0;
  exitCode: number | undefined;
  constructor(private readonly userData: string) {
    super();
  }
  requestSingleInstanceLock() {
    return this.lockGranted;
  }
  whenReady() {
    return Promise.resolve();
  }
  getPath(_name: 'userData') {
    return this.userData;
  }
  /** Like Electron: quitting emits before-quit, and stops if a listener prevented it. */
  quit() {
    this.quitCalls++;
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) } satisfies PreventableEvent);
    if (!prevented) this.emit('quit');
  }
  exit(code: number) {
    this.exitCode = code;
  }
}

class FakeWindow extends EventEmitter implements WindowLike {
  loaded: string[] = [];
  shown = false;
  focused = false;
  minimized = false;
  destroyed = false;
  readonly contents = new EventEmitter();
  openHandler: ((details: { url: string }) => WindowOpenResponse) | undefined;
  permissionRequest:
    | ((
        contents: unknown,
        permission: string,
        callback: (granted: boolean) => void,
        details: PermissionDetails,
      ) => void)
    | undefined;
  beforeSendHeaders:
    { filter: { urls: string[] }; listener: Parameters<WebRequestLike['onBeforeSendHeaders']>[1] } | undefined;
  readonly webContents = {
    session: {
      webRequest: {
        onBeforeSendHeaders: (
          filter: { urls: string[] },
          listener: Parameters<WebRequestLike['onBeforeSendHeaders']>[1],
        ) => {
          this.beforeSendHeaders = { filter, listener };
        },
      },
      setPermissionRequestHandler: (handler: NonNullable<FakeWindow['permissionRequest']>) => {
        this.permissionRequest = handler;
      },
      setPermissionCheckHandler: () => undefined,
    },
    on: (event: string, listener: EmitterListener) => this.contents.on(event, listener),
    setWindowOpenHandler: (handler: (details: { url: string }) => WindowOpenResponse) => {
      this.openHandler = handler;
    },
  };
  constructor(readonly options: WindowOptions) {
    super();
  }
  async loadURL(url: string) {
    this.loaded.push(url);
  }
  show() {
    this.shown = true;
  }
  focus() {
    this.focused = true;
  }
  restore() {
    this.minimized = false;
  }
  isMinimized() {
    return this.minimized;
  }
  isDestroyed() {
    return this.destroyed;
  }
  /** The headers a request from the page leaves with. */
  sendHeaders(url: string, requestHeaders: Record<string, string>): Record<string, string | string[]> {
    let sent: Record<string, string | string[]> = requestHeaders;
    this.beforeSendHeaders?.listener({ url, requestHeaders }, (response) => {
      sent = response.requestHeaders ?? requestHeaders;
    });
    return sent;
  }
  /** Simulates will-redirect or will-frame-navigate; returns whether it was allowed. */
  frameEvent(event: 'will-redirect' | 'will-frame-navigate', url: string, isMainFrame: boolean): boolean {
    let prevented = false;
    this.contents.emit(event, { url, isMainFrame, preventDefault: () => (prevented = true) });
    return !prevented;
  }
  /** Simulates a navigation; returns whether it was allowed. */
  navigate(url: string): boolean {
    let prevented = false;
    this.contents.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
    return !prevented;
  }
}

function setup(
  userData: string,
  options: {
    env?: NodeJS.ProcessEnv;
    platform?: NodeJS.Platform;
    startFails?: Error;
    safeStorage?: FakeSafeStorage;
    revokedKeyReplacedBy?: string;
  } = {},
) {
  const app = new FakeApp(userData);
  const windows: FakeWindow[] = [];
  const starts: GatewayStartInput[] = [];
  const gateway = {
    url: 'http://127.0.0.1:43210',
    consoleKey: '',
    closed: 0,
    close: async () => void gateway.closed++,
  } satisfies RunningGateway & { closed: number };
  const ipc = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void ipc.set(channel, listener),
    removeHandler: (channel) => void ipc.delete(channel),
  };
  const deps = {
    app,
    newWindow: (windowOptions: WindowOptions) => {
      const window = new FakeWindow(windowOptions);
      windows.push(window);
      return window;
    },
    shell: { openExternal: vi.fn(async (_url: string) => undefined) },
    safeStorage: options.safeStorage ?? unavailableSafeStorage(),
    ipcMain,
    startGateway: vi.fn(async (input: GatewayStartInput) => {
      starts.push(input);
      if (options.startFails) throw options.startFails;
      gateway.consoleKey = options.revokedKeyReplacedBy ?? input.adminKey;
      return gateway;
    }),
    setMenu: vi.fn(),
    showError: vi.fn(),
    pickModelFile: vi.fn(async (): Promise<string | null> => null),
    preloadPath: '/app/dist/electron/preload/preload.cjs',
    env: options.env ?? {},
    platform: options.platform ?? 'linux',
    log: () => undefined,
  } satisfies DesktopAppDependencies;
  return { app, windows, starts, gateway, ipc, deps };
}

describe('desktop app lifecycle', () => {
  let userData: string;
  beforeEach(() => {
    userData = useTempDir('switchyard-app-');
  });

  it('starts the gateway on localhost with the user-data folder and the console key, then opens the console', async () => {
    const { deps, starts, windows, ipc } = setup(userData);
    await runDesktopApp(deps);

    const key = (await readFile(path.join(userData, 'console-key'), 'utf8')).trim();
    expect(starts).toEqual([{ env: {}, dataDir: userData, adminKey: key, host: '127.0.0.1', port: 0 }]);
    expect(windows).toHaveLength(1);
    expect(windows[0].loaded).toEqual(['http://127.0.0.1:43210/ui/']);
    expect(deps.setMenu).toHaveBeenCalledWith({ gatewayUrl: 'http://127.0.0.1:43210', dataDir: userData });
    const fromConsole = { senderFrame: { url: 'http://127.0.0.1:43210/ui/', parent: null } };
    const token = await ipc.get('switchyard:get-api-key')?.(fromConsole);
    expect(token).toMatch(/^sk-sy-console-session-/);
    expect(token).not.toContain(key);
    expect(await ipc.get('switchyard:get-gateway-url')?.(fromConsole)).toBe('http://127.0.0.1:43210');
  });

  it('keeps the console key encrypted with safeStorage where the operating system offers it, and starts the gateway with it', async () => {
    const safeStorage = new FakeSafeStorage();
    const { deps, starts } = setup(userData, { safeStorage });
    await runDesktopApp(deps);

    const key = (await safeStorage.decryptStringAsync(await readFile(path.join(userData, 'console-key.enc')))).result;
    expect(key).toMatch(/^sk-sy-[A-Za-z0-9_-]{32}$/);
    expect(starts).toEqual([{ env: {}, dataDir: userData, adminKey: key, host: '127.0.0.1', port: 0 }]);
    expect(existsSync(path.join(userData, 'console-key'))).toBe(false);
  });

  it('the page holds only a session token: the window swaps it for the Owner key on requests to the gateway, nowhere else', async () => {
    const { deps, windows, ipc } = setup(userData);
    await runDesktopApp(deps);
    const key = (await readFile(path.join(userData, 'console-key'), 'utf8')).trim();
    const token = String(
      await ipc.get('switchyard:get-api-key')?.({
        senderFrame: { url: 'http://127.0.0.1:43210/ui/keys', parent: null },
      }),
    );
    const window = windows[0];
    expect(window.beforeSendHeaders?.filter).toEqual({ urls: ['http://127.0.0.1:43210/*'] });

    expect(
      window.sendHeaders('http://127.0.0.1:43210/v1/models', {
        Accept: 'application/json',
        Authorization: `Bearer ${token}`,
      }),
    ).toEqual({ Accept: 'application/json', Authorization: `Bearer ${key}` });
    expect(window.sendHeaders('http://127.0.0.1:43210/account/me', { 'x-api-key': token })).toEqual({
      'x-api-key': key,
    });
    // Another origin, another port, or a key the page typed itself: left alone.
    expect(window.sendHeaders('https://example.com/v1/models', { Authorization: `Bearer ${token}` })).toEqual({
      Authorization: `Bearer ${token}`,
    });
    expect(window.sendHeaders('http://127.0.0.1:9999/v1/models', { Authorization: `Bearer ${token}` })).toEqual({
      Authorization: `Bearer ${token}`,
    });
    expect(window.sendHeaders('http://127.0.0.1:43210/v1/models', { Authorization: 'Bearer sk-sy-typed' })).toEqual({
      Authorization: 'Bearer sk-sy-typed',
    });
    expect(window.sendHeaders('http://127.0.0.1:43210/ui/', {})).toEqual({});

    // A new launch hands out a new token; the key stays.
    const again = setup(userData);
    await runDesktopApp(again.deps);
    expect(
      await again.ipc.get('switchyard:get-api-key')?.({
        senderFrame: { url: 'http://127.0.0.1:43210/ui/', parent: null },
      }),
    ).not.toBe(token);
  });

  it('answers the bridge only to the console main frame, not to frames inside it', async () => {
    const { deps, ipc } = setup(userData);
    await runDesktopApp(deps);
    const getKey = ipc.get('switchyard:get-api-key')!;
    await expect(getKey({ senderFrame: { url: 'http://127.0.0.1:43210/ui/', parent: {} } })).rejects.toThrow(
      /did not come from the console/,
    );
    await expect(
      getKey({ senderFrame: { url: 'http://127.0.0.1:43210/v1/files/file-x/content', parent: null } }),
    ).rejects.toThrow(/did not come from the console/);
    await expect(getKey({ senderFrame: null })).rejects.toThrow(/did not come from the console/);
  });

  it('applies the navigation policy to server redirects and to frames', async () => {
    const { deps, windows } = setup(userData);
    await runDesktopApp(deps);
    const window = windows[0];
    expect(window.frameEvent('will-redirect', 'http://127.0.0.1:43210/ui/chat', true)).toBe(true);
    expect(window.frameEvent('will-redirect', 'http://127.0.0.1:43210/v1/files/file-x/content', true)).toBe(false);
    expect(window.frameEvent('will-redirect', 'file:///etc/passwd', true)).toBe(false);
    expect(window.frameEvent('will-redirect', 'https://example.com/landing', true)).toBe(false);
    expect(window.frameEvent('will-redirect', 'https://example.com/in-a-frame', false)).toBe(false);
    // Like will-navigate: web pages that are not the console open in the system browser (main frame only).
    expect(deps.shell.openExternal.mock.calls).toEqual([
      ['http://127.0.0.1:43210/v1/files/file-x/content'],
      ['https://example.com/landing'],
    ]);

    expect(window.frameEvent('will-frame-navigate', 'http://127.0.0.1:43210/ui/ocr', false)).toBe(true);
    expect(window.frameEvent('will-frame-navigate', 'https://example.com/', false)).toBe(false);
    expect(window.frameEvent('will-frame-navigate', 'http://127.0.0.1:43210/docs', false)).toBe(false);
    expect(window.frameEvent('will-frame-navigate', 'javascript:alert(1)', false)).toBe(false);
    // Main-frame navigations are will-navigate's to decide (and to open outside, once).
    expect(window.frameEvent('will-frame-navigate', 'https://example.com/', true)).toBe(true);
    expect(deps.shell.openExternal).toHaveBeenCalledTimes(2);
  });

  it('keeps the same key across launches', async () => {
    const first = setup(userData);
    await runDesktopApp(first.deps);
    const second = setup(userData);
    await runDesktopApp(second.deps);
    expect(second.starts[0].adminKey).toBe(first.starts[0].adminKey);
  });

  it('keeps the new Owner key the gateway made when the console key was revoked, so the user is never locked out', async () => {
    const replacement = 'sk-sy-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
    const { deps, windows, ipc } = setup(userData, { revokedKeyReplacedBy: replacement });
    await runDesktopApp(deps);
    expect((await readFile(path.join(userData, 'console-key'), 'utf8')).trim()).toBe(replacement);
    const token = String(
      await ipc.get('switchyard:get-api-key')?.({ senderFrame: { url: 'http://127.0.0.1:43210/ui/', parent: null } }),
    );
    expect(windows[0].sendHeaders('http://127.0.0.1:43210/v1/models', { Authorization: `Bearer ${token}` })).toEqual({
      Authorization: `Bearer ${replacement}`,
    });
    const again = setup(userData);
    await runDesktopApp(again.deps);
    expect(again.starts[0].adminKey).toBe(replacement);
  });

  it('honours GATEWAY_PORT and GATEWAY_DATA_DIR', async () => {
    const env = { GATEWAY_PORT: '8123', GATEWAY_DATA_DIR: path.join(userData, 'elsewhere') };
    const { deps, starts } = setup(userData, { env });
    await runDesktopApp(deps);
    expect(starts[0]).toMatchObject({ port: 8123, dataDir: path.join(userData, 'elsewhere'), env });
  });

  it('opens a locked-down window', async () => {
    const { deps, windows } = setup(userData);
    await runDesktopApp(deps);
    expect(windows[0].options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      preload: '/app/dist/electron/preload/preload.cjs',
    });
    windows[0].emit('ready-to-show');
    expect(windows[0].shown).toBe(true);
  });

  it('keeps navigation on the console and sends web links to the system browser', async () => {
    const { deps, windows } = setup(userData);
    await runDesktopApp(deps);
    const window = windows[0];
    expect(window.navigate('http://127.0.0.1:43210/ui/models')).toBe(true);
    expect(window.navigate('https://example.com/')).toBe(false);
    expect(window.navigate('file:///etc/hosts')).toBe(false);
    expect(deps.shell.openExternal.mock.calls).toEqual([['https://example.com/']]);

    expect(window.openHandler?.({ url: 'https://github.com/' })).toEqual({ action: 'deny' });
    expect(window.openHandler?.({ url: 'http://127.0.0.1:43210/ui/' })).toEqual({ action: 'deny' });
    expect(window.openHandler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(deps.shell.openExternal.mock.calls).toEqual([['https://example.com/'], ['https://github.com/']]);
  });

  it('asks the permission policy: the console may record audio, other origins may not', async () => {
    const { deps, windows } = setup(userData);
    await runDesktopApp(deps);
    const decide = (url: string, permission: string, mediaTypes?: string[]) =>
      new Promise<boolean>((resolve) =>
        windows[0].permissionRequest?.({}, permission, resolve, { requestingUrl: url, mediaTypes }),
      );
    expect(await decide('http://127.0.0.1:43210/ui/transcription', 'media', ['audio'])).toBe(true);
    expect(await decide('http://127.0.0.1:43210/ui/transcription', 'media', ['video'])).toBe(false);
    expect(await decide('https://example.com/', 'media', ['audio'])).toBe(false);
  });

  it('a second launch quits at once and the first one shows its window', async () => {
    const first = setup(userData);
    await runDesktopApp(first.deps);
    first.windows[0].minimized = true;

    const second = setup(userData);
    second.app.lockGranted = false;
    await runDesktopApp(second.deps);
    expect(second.app.quitCalls).toBe(1);
    expect(second.deps.startGateway).not.toHaveBeenCalled();
    expect(second.windows).toHaveLength(0);

    first.app.emit('second-instance');
    expect(first.windows[0]).toMatchObject({ minimized: false, focused: true, shown: true });
  });

  it('closes the gateway before quitting, once', async () => {
    const { app, deps, gateway, ipc } = setup(userData);
    await runDesktopApp(deps);
    const quit = new Promise<void>((resolve) => app.once('quit', resolve));
    app.quit();
    app.quit();
    await quit;
    expect(gateway.closed).toBe(1);
    expect(ipc.size).toBe(0);
  });

  it('quits when the last window closes, except on macOS where the dock reopens it', async () => {
    const linux = setup(userData);
    await runDesktopApp(linux.deps);
    linux.app.emit('window-all-closed');
    expect(linux.app.quitCalls).toBe(1);

    const mac = setup(userData, { platform: 'darwin' });
    await runDesktopApp(mac.deps);
    mac.windows[0].destroyed = true;
    mac.windows[0].emit('closed');
    mac.app.emit('window-all-closed');
    expect(mac.app.quitCalls).toBe(0);
    mac.app.emit('activate');
    expect(mac.windows).toHaveLength(2);
    expect(mac.windows[1].loaded).toEqual(['http://127.0.0.1:43210/ui/']);
  });

  it('shows the gateway error and exits with status 1 when the gateway cannot start', async () => {
    const { app, deps, windows } = setup(userData, {
      startFails: new Error('config.yaml: providers[0].type: unknown provider type "nope"'),
    });
    await runDesktopApp(deps);
    expect(deps.showError).toHaveBeenCalledWith(
      'Switchyard could not start',
      expect.stringContaining('providers[0].type'),
    );
    expect(deps.showError.mock.calls[0][1]).toContain('npm run serve');
    expect(app.exitCode).toBe(1);
    expect(windows).toHaveLength(0);
  });

  it('rejects a GATEWAY_PORT that is not a port', async () => {
    const { app, deps } = setup(userData, { env: { GATEWAY_PORT: 'eighty' } });
    await runDesktopApp(deps);
    expect(deps.startGateway).not.toHaveBeenCalled();
    expect(deps.showError.mock.calls[0][1]).toMatch(/GATEWAY_PORT/);
    expect(app.exitCode).toBe(1);
  });
});
