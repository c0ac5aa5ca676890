/**
 * The console window's bridge to the main process. Emitted as CommonJS (`.cts` -> `.cjs`): a
 * sandboxed preload runs in Electron's own loader, which takes no ES modules and can require
 * only `electron`, so everything else here is `import type`.
 */
import type { SwitchyardBridge } from '../shared/switchyard-bridge.js';
import type { IpcChannel, IpcContract } from '../main/ipc/ipc-contract.js';
// A CommonJS file under verbatimModuleSyntax must spell the require out.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');

function invoke<C extends IpcChannel>(channel: C, ...args: IpcContract[C]['args']): Promise<IpcContract[C]['result']> {
  return electron.ipcRenderer.invoke(channel, ...args) as Promise<IpcContract[C]['result']>;
}

const bridge: SwitchyardBridge = {
  getApiKey: () => invoke('switchyard:get-api-key'),
  getGatewayUrl: () => invoke('switchyard:get-gateway-url'),
  pickModelFile: () => invoke('switchyard:pick-model-file'),
};

electron.contextBridge.exposeInMainWorld('switchyard', bridge);
