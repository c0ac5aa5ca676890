/**
 * What the preload exposes to the console window as `window.switchyard` (absent when the console runs
 * as a web page). Types only, in a folder both sides may import: the main process's IPC contract, the
 * preload and the renderer all take the bridge from here.
 */
export interface SwitchyardBridge {
  /** The console's session token, which the window's session swaps for the Owner key. */
  getApiKey(): Promise<string>;
  getGatewayUrl(): Promise<string>;
  /** The system file dialog for a .gguf model: the chosen path, or null when cancelled. */
  pickModelFile(): Promise<string | null>;
}
