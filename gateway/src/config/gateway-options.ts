import type { ModelConfig, ProviderConfig } from './config-schema.js';

export interface ServerSettings {
  bodyLimitBytes: number;
  allowedHosts: string[];
  corsOrigins: string[];
  compressionThresholdBytes: number;
  requestLogSize: number;
  requestLogBodies: boolean;
  requestLogRetentionDays: number;
  shutdownGraceMs: number;
  warmEngines: boolean;
}

export interface AccountSettings {
  fullName: string;
  currency: string;
  initialBalance: number;
}

/** Everything buildGateway needs; produced by loadGatewayOptions from the environment and the config file. */
export interface GatewayOptions {
  host: string;
  port: number;
  dataDir: string;
  /** The file the providers and models came from, for messages. */
  configPath?: string;
  /** Bootstrap Owner key; one is generated and printed at first start when absent. */
  adminKey?: string;
  server: ServerSettings;
  account: AccountSettings;
  providers: ProviderConfig[];
  models: ModelConfig[];
  /** Folder of the built console (served at /ui/), when it exists. */
  consoleDir?: string;
  version: string;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
}
