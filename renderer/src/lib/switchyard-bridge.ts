/** What the Electron preload exposes; absent when the console runs as a web page. */
export interface SwitchyardBridge {
  getApiKey(): Promise<string>;
  getGatewayUrl(): Promise<string>;
}

declare global {
  interface Window {
    switchyard?: SwitchyardBridge;
  }
}

export function getSwitchyardBridge(): SwitchyardBridge | undefined {
  return typeof window === 'undefined' ? undefined : window.switchyard;
}
