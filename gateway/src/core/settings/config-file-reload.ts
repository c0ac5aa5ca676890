import type { GatewayOptions } from '../../config/gateway-options.js';

export type ConfigFileContent = Pick<GatewayOptions, 'providers' | 'models' | 'server' | 'builtIn' | 'mcpServers'>;

interface ReloadLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * Reads the config file again while the gateway runs (SIGHUP on `switchyard serve`) and applies its
 * providers, model routes and editable server settings through the SettingsService (`apply`), under the
 * console's stored changes. A file that does not validate is refused and the running settings stay.
 * In team mode a reload is announced, and every other instance reads its own copy of the file again.
 */
export class ConfigFileReload {
  private announce: () => void = () => undefined;
  /** Reloads run one after another. */
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly read: () => Promise<ConfigFileContent>,
    /** SettingsService.useConfigFile: the file's entries under the console's stored changes. */
    private readonly apply: (file: ConfigFileContent) => Promise<void>,
    private readonly log: ReloadLogger,
  ) {}

  /** Told after each reload this instance starts itself (team mode tells the other instances). */
  announceReloadsTo(listener: () => void): void {
    this.announce = listener;
  }

  /** Reads and applies the file; `fromPeer` when another instance reloaded (not announced again). Rejects with the file's error. */
  reload(why: string, fromPeer = false): Promise<void> {
    const run = this.running.then(async () => {
      let file: ConfigFileContent;
      try {
        file = await this.read();
      } catch (error) {
        this.log.error({ err: error, why }, `config file not reloaded: ${(error as Error).message}`);
        throw error;
      }
      await this.apply(file);
      this.log.info({ why, providers: file.providers.length, models: file.models.length }, 'config file reloaded');
      if (!fromPeer) this.announce();
    });
    this.running = run.catch(() => undefined);
    return run;
  }
}
