import type { IpcArgumentParsers, IpcHandlers } from './ipc-contract.js';

export interface IpcHandlerDependencies {
  apiKey: string;
  gatewayUrl: string;
  /** Shows the system's open-file dialog for a .gguf model; the chosen path or null. */
  pickModelFile(): Promise<string | null>;
}

/** The main process's answer to every channel. */
export function createIpcHandlers(deps: IpcHandlerDependencies): IpcHandlers {
  return {
    'switchyard:get-api-key': async () => deps.apiKey,
    'switchyard:get-gateway-url': async () => deps.gatewayUrl,
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
  'switchyard:pick-model-file': noArguments,
};
