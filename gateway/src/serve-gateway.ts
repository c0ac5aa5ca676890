import { buildGateway } from './app.js';
import { ConfigError } from './config/config-error.js';
import { StoreError } from './store/store-error.js';
import { loadGatewayOptions } from './config/load-options.js';
import type { OwnerAccess } from './core/account/key-service.js';

const RESET_OWNER_KEY = '--reset-owner-key';

/** The line after the listening line that tells the person starting the gateway how to get in as an Owner. */
function ownerAccessLine(access: OwnerAccess | { kind: 'reset'; key: string }): string | undefined {
  switch (access.kind) {
    case 'reset':
      return `New Owner API key (${RESET_OWNER_KEY}; shown once, store it now): ${access.key}`;
    case 'generated':
      return `Generated an Owner API key (shown once, store it now): ${access.key}`;
    case 'admin-key-revoked':
      return `GATEWAY_ADMIN_KEY was revoked in this data folder and no longer signs in. Use another Owner key, set GATEWAY_ADMIN_KEY to a new value, or start once with \`npm run serve -- ${RESET_OWNER_KEY}\` to create and print a new Owner key.`;
    case 'existing-owners':
      return `Sign in with an Owner key of this data folder. Lost it? Set GATEWAY_ADMIN_KEY to a key of your choice (it is added as an Owner key), or start once with \`npm run serve -- ${RESET_OWNER_KEY}\` to create and print a new Owner key.`;
    case 'admin-key':
      return undefined;
  }
}

/**
 * `switchyard serve`: environment -> options, listen, one line with the URL, one saying how to
 * get in as an Owner (a key generated now is created only once listening succeeded, so a failed
 * start never leaves a key nobody has seen), and a graceful stop
 * on SIGTERM/SIGINT: readiness turns `draining` at once while requests are still served for
 * `drain_delay_ms` (team mode: the balancer stops sending), then stop accepting, let in-flight
 * requests finish within the grace period, flush the ledger and request log, close engines, the
 * database and Redis, exit 0.
 */
async function main(args: string[]): Promise<void> {
  const unknown = args.filter((arg) => arg !== RESET_OWNER_KEY);
  if (unknown.length > 0)
    throw new UsageError(
      `unknown option ${unknown[0]}; the only option is ${RESET_OWNER_KEY} (create and print a new Owner key)`,
    );
  // A closed pipe (the reader of our output went away) must not turn a clean shutdown into a crash.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const options = await loadGatewayOptions({ env: process.env });
  const { app, control } = await buildGateway(options);
  // Before the listening line: a supervisor may signal as soon as it reads it, and a signal that
  // arrives before the handlers exist kills the process without the drain.
  let stopping = false;
  let drainTimer: NodeJS.Timeout | undefined;
  const stop = (signal: string) => {
    if (stopping) {
      // A second Ctrl+C or SIGTERM during the drain delay closes now (in-flight requests still finish).
      if (!drainTimer) return;
      process.stdout.write(`${signal} received again: closing now\n`);
      close();
      return;
    }
    stopping = true;
    control.beginDrain();
    const { drainDelayMs } = options.server;
    process.stdout.write(
      `${signal} received: ${drainDelayMs > 0 ? `not ready, still serving for ${drainDelayMs} ms, then ` : ''}finishing in-flight requests\n`,
    );
    drainTimer = setTimeout(() => close(), drainDelayMs);
  };
  const close = () => {
    clearTimeout(drainTimer);
    drainTimer = undefined;
    const forced = setTimeout(() => {
      process.stderr.write(
        `In-flight requests did not finish within ${options.server.shutdownGraceMs} ms; closing them.\n`,
      );
      app.server.closeAllConnections();
    }, options.server.shutdownGraceMs);
    forced.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Shutdown failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // SIGHUP reads the config file again (and, in team mode, every other instance does too).
  process.on('SIGHUP', () => {
    control.configReload.reload('SIGHUP').then(
      () => process.stdout.write('SIGHUP received: config file reloaded\n'),
      (error: unknown) =>
        process.stderr.write(
          `SIGHUP received: config file not reloaded, the running settings stay: ${(error as Error).message}\n`,
        ),
    );
  });

  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  process.stdout.write(
    `Switchyard gateway listening on http://${host}:${port} (console: http://${host}:${port}/ui/, data: ${options.dataDir})\n`,
  );
  const { keys } = control;
  const line = ownerAccessLine(
    args.includes(RESET_OWNER_KEY)
      ? { kind: 'reset', key: (await keys.create({ name: `Owner (${RESET_OWNER_KEY})`, role: 'owner' })).key }
      : await keys.ownerAccess(options.adminKey),
  );
  if (line) process.stdout.write(`${line}\n`);
}

class UsageError extends Error {}

function reportStartFailure(error: unknown): never {
  const failure = error as NodeJS.ErrnoException & { address?: string; port?: number };
  if (error instanceof UsageError) {
    process.stderr.write(`Switchyard: ${error.message}\n`);
  } else if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
  } else if (error instanceof StoreError) {
    process.stderr.write(`Database error: ${error.message}\n`);
  } else if (failure.code === 'EADDRINUSE') {
    process.stderr.write(
      `Switchyard could not start: ${failure.address ?? 'the address'}:${failure.port ?? ''} is already in use (another Switchyard, or another program). Stop it, or choose another port with GATEWAY_PORT.\n`,
    );
  } else {
    process.stderr.write(`Switchyard failed to start: ${(error as Error).stack ?? String(error)}\n`);
  }
  process.exit(1);
}

/** Runs `switchyard serve` with the command line's arguments; a failed start prints one line and exits 1. */
export async function serveGateway(args: string[]): Promise<void> {
  await main(args).catch(reportStartFailure);
}
