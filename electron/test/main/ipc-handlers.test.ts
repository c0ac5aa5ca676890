import { describe, expect, it, vi } from 'vitest';
import { createIpcHandlers } from '../../main/ipc/create-ipc-handlers.js';
import { IPC_CHANNELS } from '../../main/ipc/ipc-contract.js';
import type { IpcChannel, IpcContract } from '../../main/ipc/ipc-contract.js';
import type { IpcInvokeEventLike, IpcMainLike } from '../../main/ipc/register-ipc-handlers.js';
import { registerIpcHandlers } from '../../main/ipc/register-ipc-handlers.js';

const gatewayUrl = 'http://127.0.0.1:40000';

type Listener = (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>;

function fakeIpcMain() {
  const listeners = new Map<string, Listener>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => {
      if (listeners.has(channel)) throw new Error(`second handler for ${channel}`);
      listeners.set(channel, listener);
    },
    removeHandler: (channel) => listeners.delete(channel),
  };
  const invokeFrom =
    (url: string) =>
    <C extends IpcChannel>(channel: C, ...args: unknown[]): Promise<IpcContract[C]['result']> => {
      const listener = listeners.get(channel);
      if (!listener) throw new Error(`no handler for ${channel}`);
      return listener({ senderFrame: { url } }, ...args) as Promise<IpcContract[C]['result']>;
    };
  return { ipcMain, listeners, invoke: invokeFrom(`${gatewayUrl}/ui/keys`), invokeFrom };
}

function setup() {
  const pickModelFile = vi.fn(async (): Promise<string | null> => '/home/me/models/tiny.gguf');
  const handlers = createIpcHandlers({
    apiKey: 'sk-sy-abc',
    gatewayUrl,
    pickModelFile,
  });
  const fake = fakeIpcMain();
  const unregister = registerIpcHandlers(fake.ipcMain, handlers, gatewayUrl);
  return { ...fake, pickModelFile, unregister };
}

describe('IPC handlers', () => {
  it('registers a handler for every channel of the contract', () => {
    const { listeners } = setup();
    expect([...listeners.keys()].sort()).toEqual([...IPC_CHANNELS].sort());
    expect(IPC_CHANNELS).toHaveLength(3);
  });

  it('answers with the key and the gateway URL', async () => {
    const { invoke } = setup();
    expect(await invoke('switchyard:get-api-key')).toBe('sk-sy-abc');
    expect(await invoke('switchyard:get-gateway-url')).toBe(gatewayUrl);
  });

  it('answers the model file dialog with the chosen path, or null when cancelled, and takes no arguments', async () => {
    const { invoke, pickModelFile } = setup();
    expect(await invoke('switchyard:pick-model-file')).toBe('/home/me/models/tiny.gguf');
    pickModelFile.mockResolvedValueOnce(null);
    expect(await invoke('switchyard:pick-model-file')).toBeNull();
    await expect(invoke('switchyard:pick-model-file', '/etc/passwd')).rejects.toThrow(/no arguments/);
    expect(pickModelFile).toHaveBeenCalledTimes(2);
  });

  it('does not give the key to pages that are not the console', async () => {
    const { invokeFrom } = setup();
    await expect(invokeFrom('https://evil.example/')('switchyard:get-api-key')).rejects.toThrow(
      /did not come from the console/,
    );
    await expect(invokeFrom(`${gatewayUrl}/docs`)('switchyard:get-api-key')).rejects.toThrow(
      /did not come from the console/,
    );
  });

  it('removes every handler when asked', () => {
    const { listeners, unregister } = setup();
    unregister();
    expect(listeners.size).toBe(0);
  });
});
