import type { SwitchyardBridge } from '../../../electron/shared/switchyard-bridge';

declare global {
  interface Window {
    /** Set by the Electron preload; absent when the console runs as a web page. */
    switchyard?: SwitchyardBridge;
  }
}

export function getSwitchyardBridge(): SwitchyardBridge | undefined {
  return typeof window === 'undefined' ? undefined : window.switchyard;
}
