/** What the Electron preload exposes; absent when the console runs as a web page. */
export interface SwitchyardBridge {
  getApiKey(): Promise<string>;
  getGatewayUrl(): Promise<string>;
  /** The system file dialog for a .gguf model: the chosen path, or null when cancelled. */
  pickModelFile?(): Promise<string | null>;
}

declare global {
  interface Window {
    switchyard?: SwitchyardBridge;
  }
}

export function getSwitchyardBridge(): SwitchyardBridge | undefined {
  return typeof window === 'undefined' ? undefined : window.switchyard;
}
