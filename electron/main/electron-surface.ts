/**
 * The slices of Electron's API the main-process logic uses, so that logic can run in tests with
 * fakes; `main.ts` passes the real modules, which satisfy these shapes.
 */

export interface PreventableEvent {
  preventDefault(): void;
}

export type WindowOpenResponse = { action: 'deny' };

/** What Electron tells a permission handler about the request. */
export interface PermissionDetails {
  requestingUrl?: string;
  mediaTypes?: string[];
}

/** A navigation Electron lets the main process veto (will-redirect, will-frame-navigate). */
export interface NavigationEventLike extends PreventableEvent {
  url: string;
  isMainFrame: boolean;
}

/** The part of a session's `webRequest` used to put the key on the console's requests. */
export interface WebRequestLike {
  onBeforeSendHeaders(
    filter: { urls: string[] },
    listener: (
      details: { url: string; requestHeaders: Record<string, string | string[]> },
      callback: (response: { requestHeaders?: Record<string, string | string[]>; cancel?: boolean }) => void,
    ) => void,
  ): void;
}

export interface SessionLike {
  webRequest: WebRequestLike;
  setPermissionRequestHandler(
    handler: (
      webContents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
      details: PermissionDetails,
    ) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (
      webContents: unknown,
      permission: string,
      requestingOrigin: string,
      details: PermissionDetails,
    ) => boolean,
  ): void;
}

export interface WebContentsLike {
  session: SessionLike;
  on(event: 'will-navigate', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-redirect' | 'will-frame-navigate', listener: (event: NavigationEventLike) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenResponse): void;
}

export interface WindowOptions {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  backgroundColor: string;
  webPreferences: {
    preload: string;
    contextIsolation: true;
    sandbox: true;
    nodeIntegration: false;
    webSecurity: true;
    spellcheck: boolean;
  };
}

export interface WindowLike {
  webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
}

export type WindowFactory = (options: WindowOptions) => WindowLike;

/**
 * Electron's safeStorage: strings encrypted with a key the operating system keeps for this user
 * (Keychain on macOS, DPAPI on Windows, a secret service such as GNOME Keyring or KWallet on Linux).
 */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  /** Linux only: which secret store encrypts; `basic_text` is a fixed password, no protection. */
  getSelectedStorageBackend(): string;
}

export interface ShellLike {
  openExternal(url: string): Promise<void>;
}

export interface AppLike {
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<unknown>;
  on(event: 'second-instance' | 'activate' | 'window-all-closed', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: PreventableEvent) => void): unknown;
  getPath(name: 'userData'): string;
  quit(): void;
  exit(code: number): void;
}
