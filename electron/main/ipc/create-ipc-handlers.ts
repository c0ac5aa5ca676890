import { isWebUrl } from '../url-policy.js';
import type { IpcArgumentParsers, IpcHandlers } from './ipc-contract.js';

export interface IpcHandlerDependencies {
  apiKey: string;
  gatewayUrl: string;
  appVersion: string;
  /** Opens a URL in the system browser (Electron's `shell.openExternal`). */
  openExternal(url: string): Promise<void>;
  /** Shows the system's open-file dialog for a .gguf model; the chosen path or null. */
  pickModelFile(): Promise<string | null>;
}

/** The main process's answer to every channel. */
export function createIpcHandlers(deps: IpcHandlerDependencies): IpcHandlers {
  return {
    'switchyard:get-api-key': async () => deps.apiKey,
    'switchyard:get-gateway-url': async () => deps.gatewayUrl,
    'switchyard:get-app-version': async () => deps.appVersion,
    'switchyard:open-external': async (url) => {
      if (!isWebUrl(url)) throw new Error(`only http and https links open in the browser, not ${JSON.stringify(url)}`);
      await deps.openExternal(url);
    },
    'switchyard:pick-model-file': () => deps.pickModelFile(),
  };
}

const noArguments = (args: unknown[]): [] => {
  if (args.length > 0) throw new Error('this channel takes no arguments');
  return [];
};

export const IPC_ARGUMENT_PARSERS: IpcArgumentParsers = {
  'switchyard:get-api-key': noArguments,
  'switchyard:get-gateway-url': noArguments,
  'switchyard:get-app-version': noArguments,
  'switchyard:open-external': (args) => {
    const [url] = args;
    if (args.length !== 1 || typeof url !== 'string') throw new Error('openExternal takes one URL string');
    return [url];
  },
  'switchyard:pick-model-file': noArguments,
};
