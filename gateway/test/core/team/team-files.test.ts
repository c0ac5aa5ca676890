import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { json, type Json, type TestGateway } from '../../support/start-gateway.js';
import { dropRedisPrefix, teamInstanceEnv, TEST_REDIS_URL } from '../../support/team-of-gateways.js';
import { createTestDatabase } from '../../support/test-databases.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway, useTempDir } from '../../support/use-resources.js';

let database: { url: string; drop(): Promise<void> };
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

async function upload(on: TestGateway, content: Buffer, filename: string, purpose = 'user_data'): Promise<Json> {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', new Blob([new Uint8Array(content)], { type: 'application/octet-stream' }), filename);
  const response = await on.request('/v1/files', { method: 'POST', body: form });
  expect(response.status).toBe(200);
  return json(response);
}

describe('files in team mode: one PostgreSQL, one Redis, one shared GATEWAY_FILES_DIR', () => {
  it('a file uploaded through A is listed and read byte for byte through B; deleted through B, A answers 404', async () => {
    const prefix = `switchyard-test-${randomUUID()}:`;
    onTestFinished(() => dropRedisPrefix(TEST_REDIS_URL, prefix));
    const filesDir = useTempDir('switchyard-shared-files-');
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const env = (id: string) => teamInstanceEnv({ databaseUrl: database.url, prefix, filesDir }, id);
    // Each instance its own data folder: only the files directory and the database are shared.
    const a = await useGateway({ env: env('gw-a'), config: upstreamConfig(upstream) });
    const b = await useGateway({ env: env('gw-b'), config: upstreamConfig(upstream) });
    expect(a.dataDir).not.toBe(b.dataDir);

    const content = randomBytes(300 * 1024);
    const record = await upload(a, content, 'scan.bin');
    expect(record).toMatchObject({ object: 'file', bytes: content.length, filename: 'scan.bin' });
    // The bytes are in the shared directory (complete, under the file's id), not in A's data folder.
    expect(readdirSync(filesDir)).toEqual([record.id]);
    expect(existsSync(join(a.dataDir, 'files', record.id))).toBe(false);

    const listed = await json(await b.request('/v1/files'));
    expect((listed.data as Json[]).map((file) => file.id)).toContain(record.id);
    expect(await json(await b.request(`/v1/files/${record.id}`))).toMatchObject({
      id: record.id,
      bytes: content.length,
    });
    const download = await b.request(`/v1/files/${record.id}/content`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);

    const deleted = await b.request(`/v1/files/${record.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toMatchObject({ id: record.id, deleted: true });
    expect(readdirSync(filesDir)).toEqual([]);
    const gone = await a.request(`/v1/files/${record.id}/content`);
    expect(gone.status).toBe(404);
    expect((await json(gone)).code).toBe('file_not_found');
    expect((await a.request(`/v1/files/${record.id}`)).status).toBe(404);
    expect(((await json(await a.request('/v1/files'))).data as Json[]).map((file) => file.id)).not.toContain(record.id);
  });
});
