/** A gateway listening on localhost, as the desktop app sees it. */
export interface RunningGateway {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:51234`. */
  url: string;
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
