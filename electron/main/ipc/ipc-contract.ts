import type { SwitchyardBridge } from '../../shared/switchyard-bridge.js';

/** A bridge function as a channel: its arguments and what the main process answers. */
type BridgeCall<F extends keyof SwitchyardBridge> = {
  args: Parameters<SwitchyardBridge[F]>;
  result: Awaited<ReturnType<SwitchyardBridge[F]>>;
};

/**
 * The IPC surface between the console window and the main process: one channel per bridge function,
 * typed from the bridge. The preload and the handler table are both typed against this map, so a
 * channel cannot exist on one side only.
 */
export interface IpcContract {
  'switchyard:get-api-key': BridgeCall<'getApiKey'>;
  'switchyard:get-gateway-url': BridgeCall<'getGatewayUrl'>;
  'switchyard:pick-model-file': BridgeCall<'pickModelFile'>;
}

export type IpcChannel = keyof IpcContract;

/** Every channel, for registration; `satisfies` plus the test keep it in step with the contract. */
export const IPC_CHANNELS = [
  'switchyard:get-api-key',
  'switchyard:get-gateway-url',
  'switchyard:pick-model-file',
] as const satisfies readonly IpcChannel[];

export type IpcHandler<C extends IpcChannel> = (...args: IpcContract[C]['args']) => Promise<IpcContract[C]['result']>;

export type IpcHandlers = { [C in IpcChannel]: IpcHandler<C> };

/** Turns the untyped arguments from the renderer into the contract's, or throws. */
export type IpcArgumentParsers = { [C in IpcChannel]: (args: unknown[]) => IpcContract[C]['args'] };
