import { isConsoleUrl } from '../url-policy.js';
import { IPC_ARGUMENT_PARSERS } from './create-ipc-handlers.js';
import type { IpcChannel, IpcContract, IpcHandlers } from './ipc-contract.js';
import { IPC_CHANNELS } from './ipc-contract.js';

/** The part of an invoke event the main process trusts: which page sent it. */
export interface IpcInvokeEventLike {
  /** `parent` is null for a window's main frame (Electron's WebFrameMain). */
  senderFrame: { url: string; parent?: unknown } | null;
}

/** The part of Electron's `ipcMain` used here. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

function invoke<C extends IpcChannel>(
  handlers: IpcHandlers,
  channel: C,
  args: unknown[],
): Promise<IpcContract[C]['result']> {
  const handler = handlers[channel] as (...parsed: IpcContract[C]['args']) => Promise<IpcContract[C]['result']>;
  return handler(...IPC_ARGUMENT_PARSERS[channel](args));
}

/**
 * Registers every channel of the contract, answering only the console's own pages (a page that
 * somehow got loaded from elsewhere must not read the Owner key). Returns a function that removes them.
 */
export function registerIpcHandlers(ipcMain: IpcMainLike, handlers: IpcHandlers, gatewayUrl: string): () => void {
  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(channel, async (event, ...args) => {
      const sender = event.senderFrame?.url ?? '';
      const isSubframe = event.senderFrame?.parent !== undefined && event.senderFrame.parent !== null;
      if (!isConsoleUrl(sender, gatewayUrl) || isSubframe)
        throw new Error(`${channel} refused: the request did not come from the console`);
      return invoke(handlers, channel, args);
    });
  }
  return () => {
    for (const channel of IPC_CHANNELS) ipcMain.removeHandler(channel);
  };
}
