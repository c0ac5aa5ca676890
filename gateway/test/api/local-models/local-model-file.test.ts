import { existsSync, lstatSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemberKey } from '../../support/latency-probe.js';
import { json } from '../../support/start-gateway.js';
import { writeTinyLlamaGguf } from '../../support/tiny-gguf.js';
import { useGateway, useTempDir } from '../../support/use-resources.js';

describe('use a GGUF file already on this computer', () => {
  it('links the file where it lies, routes it at once (chat works, no restart), and deleting it removes only the link', async () => {
    const elsewhere = useTempDir('switchyard-my-models-');
    const path = join(elsewhere, 'my-tiny.gguf');
    await writeTinyLlamaGguf(path, { seed: 5 });
    const gateway = await useGateway({ config: { providers: [{ id: 'local-llm', type: 'llamacpp', threads: 1 }] } });

    const added = await gateway.request('/v1/local-models/files', { method: 'POST', json: { path } });
    expect(added.status).toBe(201);
    expect(await json(added)).toMatchObject({
      name: 'my-tiny.gguf',
      model: 'my-tiny',
      kind: 'gguf',
      capabilities: ['chat', 'completions', 'embeddings'],
    });
    expect(lstatSync(join(gateway.dataDir, 'models', 'my-tiny.gguf')).isSymbolicLink()).toBe(true);

    const chat = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: 'my-tiny', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 },
    });
    expect(chat.status).toBe(200);
    const models = (await json(await gateway.request('/v1/models'))).data.map((m: { id: string }) => m.id);
    expect(models).toContain('my-tiny');

    // The same name again: a clear conflict.
    const again = await gateway.request('/v1/local-models/files', { method: 'POST', json: { path } });
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ object: 'error', code: 'model_file_exists', param: 'path' });

    expect((await gateway.request('/v1/local-models/files/my-tiny.gguf', { method: 'DELETE' })).status).toBe(200);
    expect(existsSync(join(gateway.dataDir, 'models', 'my-tiny.gguf'))).toBe(false);
    expect(existsSync(path)).toBe(true);
  });

  it('refuses what is not a readable GGUF file with a 422 naming the path, and Member keys with 403', async () => {
    const elsewhere = useTempDir('switchyard-my-models-');
    const gateway = await useGateway();
    const notGguf = join(elsewhere, 'notes.gguf');
    writeFileSync(notGguf, 'hello, not a model');
    const cases: [unknown, string][] = [
      [{ path: 'relative/model.gguf' }, 'invalid_path'],
      [{ path: join(elsewhere, 'missing.gguf') }, 'file_not_readable'],
      [{ path: join(elsewhere, 'notes.txt') }, 'unsupported_model_file'],
      [{ path: notGguf }, 'invalid_gguf'],
      [{ path: elsewhere + '/' }, 'unsupported_model_file'],
    ];
    for (const [body, code] of cases) {
      const answer = await gateway.request('/v1/local-models/files', { method: 'POST', json: body });
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(await json(answer), JSON.stringify(body)).toMatchObject({ object: 'error', code, param: 'path' });
    }
    const missing = await gateway.request('/v1/local-models/files', { method: 'POST', json: {} });
    expect(missing.status).toBe(422);
    expect((await json(missing)).param).toBe('path');

    const member = await createMemberKey(gateway);
    const refused = await gateway.request('/v1/local-models/files', {
      method: 'POST',
      key: member,
      json: { path: notGguf },
    });
    expect(refused.status).toBe(403);
  });
});
