#!/usr/bin/env node
// Run by `npm start` before launching Electron: makes sure the Electron binary is present.
// npm installs the `electron` package with its types even when the postinstall download of the
// binary was skipped or failed (offline machines, ELECTRON_SKIP_BINARY_DOWNLOAD, CI caches);
// this fetches it on demand and explains the headless alternative when it cannot.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const electronDir = join(root, 'node_modules', 'electron');
const distDir = join(electronDir, 'dist');
const pathFile = join(electronDir, 'path.txt');
const DOWNLOAD_TIMEOUT_MS = 15 * 60 * 1000;

const isInstalled = () => existsSync(distDir) && existsSync(pathFile);

function fail(reason) {
  process.stderr.write(
    `\nThe Electron desktop binary could not be fetched (${reason}).\n` +
      'The desktop app needs it once; it is downloaded from GitHub or ELECTRON_MIRROR.\n' +
      'Without it, `npm run serve` runs the same gateway and console headless: open the printed\n' +
      'http://127.0.0.1:<port>/ui/ address in a browser.\n\n',
  );
  process.exit(1);
}

if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
  // The user points at their own Electron build; nothing to fetch.
  process.exit(0);
}
if (!existsSync(join(electronDir, 'install.js'))) {
  fail('the electron package is not installed; run `npm install`');
}
if (isInstalled()) process.exit(0);

process.stdout.write('Electron binary missing: downloading it (once)...\n');
const env = { ...process.env };
// `npm start` wants the binary now, whatever skipped it at install time.
delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
  cwd: electronDir,
  env,
  stdio: 'inherit',
  timeout: DOWNLOAD_TIMEOUT_MS,
});

if (result.error) fail(result.error.message);
if (result.status !== 0) fail(`the download exited with status ${result.status ?? result.signal}`);
if (!isInstalled()) fail(`${distDir} is still missing after the download`);
process.stdout.write('Electron binary installed.\n');
