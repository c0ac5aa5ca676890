/**
 * The IPC surface between the console window and the main process: one entry per channel, with
 * the arguments the preload sends and what the main process answers. The preload and the handler
 * table are both typed against this map, so a channel cannot exist on one side only.
 */
export interface IpcContract {
  'switchyard:get-api-key': { args: []; result: string };
  'switchyard:get-gateway-url': { args: []; result: string };
  'switchyard:get-app-version': { args: []; result: string };
  'switchyard:open-external': { args: [url: string]; result: void };
  /** The system file dialog for a .gguf file; the chosen path, or null when cancelled. */
  'switchyard:pick-model-file': { args: []; result: string | null };
}

export type IpcChannel = keyof IpcContract;

/** Every channel, for registration; `satisfies` plus the test keep it in step with the contract. */
export const IPC_CHANNELS = [
  'switchyard:get-api-key',
  'switchyard:get-gateway-url',
  'switchyard:get-app-version',
  'switchyard:open-external',
  'switchyard:pick-model-file',
] as const satisfies readonly IpcChannel[];

export type IpcHandler<C extends IpcChannel> = (...args: IpcContract[C]['args']) => Promise<IpcContract[C]['result']>;

export type IpcHandlers = { [C in IpcChannel]: IpcHandler<C> };

/** Turns the untyped arguments from the renderer into the contract's, or throws. */
export type IpcArgumentParsers = { [C in IpcChannel]: (args: unknown[]) => IpcContract[C]['args'] };

/** What the preload exposes as `window.switchyard`; the renderer declares its global with this type. */
export interface SwitchyardBridge {
  getApiKey(): Promise<string>;
  getGatewayUrl(): Promise<string>;
  getAppVersion(): Promise<string>;
  openExternal(url: string): Promise<void>;
  pickModelFile(): Promise<string | null>;
}
