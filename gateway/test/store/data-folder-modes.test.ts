import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGateway } from '../../src/app.js';
import { loadGatewayOptions } from '../../src/config/load-options.js';
import { ADMIN_KEY, json } from '../support/start-gateway.js';
import { closeAfterTest, useFakeUpstream, useGateway, useTempDir } from '../support/use-resources.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';

/** Every folder and file under `root` (symbolic links excepted), with its permission bits. */
function modesUnder(root: string): Record<string, number> {
  const modes: Record<string, number> = { '.': statSync(root).mode & 0o777 };
  const walk = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue;
      const path = join(folder, entry.name);
      modes[prefix + entry.name] = lstatSync(path).mode & 0o777;
      if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`);
    }
  };
  walk(root, '');
  return modes;
}

function expectPrivate(modes: Record<string, number>, folders: Set<string>): void {
  const expected = Object.fromEntries(Object.keys(modes).map((name) => [name, folders.has(name) ? 0o700 : 0o600]));
  const octal = (entries: Record<string, number>) =>
    Object.fromEntries(Object.entries(entries).map(([name, mode]) => [name, mode.toString(8)]));
  expect(octal(modes)).toEqual(octal(expected));
}

async function uploadAndChat(request: (path: string, init?: RequestInit) => Promise<Response>): Promise<void> {
  const form = new FormData();
  form.set('purpose', 'batch');
  const line = {
    custom_id: 'a',
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
  };
  form.set('file', new Blob([`${JSON.stringify(line)}\n`], { type: 'application/jsonl' }), 'input.jsonl');
  const uploaded = await request('/v1/files', { method: 'POST', body: form });
  expect(uploaded.status).toBe(200);
  const chat = await request('/v1/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'svc-large-3', messages: [{ role: 'user', content: 'hello' }] }),
  });
  expect(chat.status).toBe(200);
  expect((await json(chat)).object).toBe('chat.completion');
}

// Owner/group/other modes do not exist on Windows, where the gateway only creates the folders.
describe.skipIf(process.platform === 'win32')('the data folder is private to the user', () => {
  // A umask that takes nothing away: every mode below comes from the gateway, not from the umask.
  let umask: number;
  beforeEach(() => {
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('creates a new data folder 0700 and the database, journal, key and uploads in it 0600', async () => {
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const parent = useTempDir();
    const configPath = join(parent, 'config.yaml');
    writeFileSync(configPath, stringify({ ...upstreamConfig(upstream), server: { warm_engines: false } }));
    const dataDir = join(parent, 'new', 'data');
    const options = await loadGatewayOptions({
      env: { GATEWAY_LOG_LEVEL: 'silent' },
      overrides: { dataDir, port: 0, host: '127.0.0.1', adminKey: ADMIN_KEY, configPath },
    });
    const { app } = await buildGateway(options);
    closeAfterTest(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    await uploadAndChat((path, init = {}) =>
      fetch(url + path, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${ADMIN_KEY}` },
      }),
    );

    const running = modesUnder(dataDir);
    // What a user relies on being there, private, while the gateway runs (SQLite's log files included).
    expect(Object.keys(running)).toEqual(
      expect.arrayContaining(['switchyard.db', 'switchyard.db-wal', 'switchyard.db-shm', 'secret.key', 'files']),
    );
    expect(Object.keys(running).some((name) => name.startsWith('files/file-'))).toBe(true);
    expect(Object.keys(running).some((name) => name.startsWith('usage-journal.'))).toBe(true);
    expectPrivate(running, new Set(['.', 'files']));
    // The missing parent made on the way is private too.
    expect(statSync(join(parent, 'new')).mode & 0o777).toBe(0o700);

    await app.close();
    expectPrivate(modesUnder(dataDir), new Set(['.', 'files']));
  });

  it("tightens an existing data folder with looser modes at start, and the gateway's entries in it, leaving the rest and what symbolic links point to alone", async () => {
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const parent = useTempDir();
    const dataDir = join(parent, 'data');
    mkdirSync(join(dataDir, 'files'), { recursive: true, mode: 0o755 });
    mkdirSync(join(dataDir, 'models', 'speech'), { recursive: true, mode: 0o775 });
    writeFileSync(join(dataDir, 'files', 'file-old'), 'an upload an earlier version made', { mode: 0o644 });
    writeFileSync(join(dataDir, 'models', 'speech', 'tokens.txt'), 'a b c', { mode: 0o666 });
    writeFileSync(join(dataDir, 'switchyard.db'), '', { mode: 0o644 });
    const outside = join(parent, 'shared.gguf');
    writeFileSync(outside, 'a model shared with others', { mode: 0o644 });
    symlinkSync(outside, join(dataDir, 'models', 'shared.gguf'));
    writeFileSync(join(dataDir, 'notes.txt'), 'the user keeps this here', { mode: 0o644 });
    for (const folder of [dataDir, join(dataDir, 'files')]) chmodSync(folder, 0o755);

    const gateway = await useGateway({ dataDir, config: upstreamConfig(upstream) });
    await uploadAndChat((path, init) => gateway.request(path, init));

    const { 'notes.txt': notes, 'config.yaml': config, ...gateways } = modesUnder(dataDir);
    expectPrivate(gateways, new Set(['.', 'files', 'models', 'models/speech']));
    expect(Object.keys(gateways)).toEqual(
      expect.arrayContaining(['switchyard.db', 'secret.key', 'files/file-old', 'models/speech/tokens.txt']),
    );
    // Not the gateway's: behind the folder's 0700 now, but their modes are the user's business.
    expect([notes.toString(8), config.toString(8)]).toEqual(['644', '666']);
    expect(statSync(outside).mode & 0o777).toBe(0o644);
  });

  it('leaves a folder shared with others (the sticky bit, like /tmp) as it is', async () => {
    const dataDir = join(useTempDir(), 'shared');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o1777);
    writeFileSync(join(dataDir, 'someone-else.txt'), "not the gateway's", { mode: 0o644 });
    const gateway = await useGateway({ dataDir });
    expect((await gateway.request('/v1/models')).status).toBe(200);
    expect(statSync(dataDir).mode & 0o7777).toBe(0o1777);
    expect(statSync(join(dataDir, 'someone-else.txt')).mode & 0o777).toBe(0o644);
  });
});
