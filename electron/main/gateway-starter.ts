/** A gateway listening on localhost, as the desktop app sees it. */
export interface RunningGateway {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:51234`. */
  url: string;
  /**
   * The Owner key the console uses: the one it was started with, or a new one when that key was
   * revoked in the data folder (the desktop app never locks its own user out).
   */
  consoleKey: string;
  close(): Promise<void>;
}

export interface GatewayStartInput {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  adminKey: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
}

/** Starts the gateway; the real one runs it in-process, tests pass a stub. */
export type GatewayStarter = (input: GatewayStartInput) => Promise<RunningGateway>;
