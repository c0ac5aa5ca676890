import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUIRED_NODE, unsupportedNodeMessage } from '../../src/config/node-version.js';

const REPO = join(import.meta.dirname, '../../..');
/** Debian's own Node (20 on the project's machines): an older Node as a user may have it on PATH. */
const SYSTEM_NODE = '/usr/bin/node';
const systemNodeVersion = existsSync(SYSTEM_NODE)
  ? spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()
  : '';
const olderNode = systemNodeVersion !== '' && unsupportedNodeMessage(systemNodeVersion) !== undefined;

describe('the Node version gate', () => {
  it("is package.json's engines.node and compares versions part by part", () => {
    const engines = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } })
      .engines.node;
    expect(engines).toBe(`>=${REQUIRED_NODE}`);
    expect(unsupportedNodeMessage('20.20.2')).toBe(
      'Switchyard needs Node 22.12 or newer; this is Node 20.20.2. Install a newer Node (for example from the npm registry: npm install node@22) and run it again.',
    );
    expect(unsupportedNodeMessage('v22.11.9')).toMatch(/needs Node 22\.12/);
    for (const fine of ['22.12.0', '22.13.1', '23.0.0', '24.21.0', '100.0.0'])
      expect(unsupportedNodeMessage(fine)).toBeUndefined();
  });

  it.runIf(olderNode)(
    'the CLI and `npm run serve` refuse an older Node with one line, before building or loading anything',
    () => {
      for (const entry of ['dist/gateway/src/cli.js', 'scripts/serve.mjs']) {
        const result = spawnSync(SYSTEM_NODE, [join(REPO, entry)], {
          cwd: REPO,
          encoding: 'utf8',
          timeout: 20_000,
          // No Node of the project's cache folder to start with instead (see below).
          env: {
            ...process.env,
            GATEWAY_PORT: '0',
            GATEWAY_LOG_LEVEL: 'silent',
            XDG_CACHE_HOME: join(tmpdir(), 'no-such-cache'),
          },
        });
        expect(result.status, entry).toBe(1);
        expect(result.stdout, entry).toBe('');
        expect(result.stderr, entry).toBe(
          `Switchyard needs Node 22.12 or newer; this is Node ${systemNodeVersion.slice(1)}. Install a newer Node (for example from the npm registry: npm install node@22) and run it again.\n`,
        );
      }
    },
  );

  it.runIf(olderNode)(
    '`npm run serve` on an older Node starts on the Node 24 that .ci/run and the README put in the cache folder, saying so',
    () => {
      const cache = mkdtempSync(join(tmpdir(), 'switchyard-node-cache-'));
      try {
        const bin = join(cache, 'switchyard/node24/node_modules/.bin');
        mkdirSync(bin, { recursive: true });
        symlinkSync(process.execPath, join(bin, 'node'));
        // An unknown option ends the start at once, in the CLI: what answers is the CLI on the newer Node.
        const result = spawnSync(SYSTEM_NODE, [join(REPO, 'scripts/serve.mjs'), '--no-such-option'], {
          cwd: REPO,
          encoding: 'utf8',
          timeout: 60_000,
          env: { ...process.env, XDG_CACHE_HOME: cache, GATEWAY_PORT: '0', GATEWAY_LOG_LEVEL: 'silent' },
        });
        expect(result.stdout).toContain(
          `Node ${systemNodeVersion.slice(1)} is older than ${REQUIRED_NODE}: starting with Node ${process.versions.node} from ${join(bin, 'node')}`,
        );
        expect(result.stderr).toContain('unknown option --no-such-option');
        expect(result.status).toBe(1);
      } finally {
        rmSync(cache, { recursive: true, force: true });
      }
    },
  );
});
