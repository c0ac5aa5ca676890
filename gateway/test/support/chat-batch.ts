import { expect } from 'vitest';
import { json, type Json } from './start-gateway.js';

/** A batch line asking `svc-large-3` for a chat answer to `content`. */
export const chatLine = (id: string, content = `line ${id}`) => ({
  custom_id: id,
  method: 'POST',
  url: '/v1/chat/completions',
  body: { model: 'svc-large-3', messages: [{ role: 'user', content }] },
});

/** Uploads the lines as a JSONL batch file through `on`, then creates a chat batch of it (OpenAI's /v1/batches, 24h window); the batch. */
export async function createChatBatch(
  on: { request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response> },
  lines: unknown[],
): Promise<Json> {
  const form = new FormData();
  form.set('purpose', 'batch');
  form.set(
    'file',
    new Blob([lines.map((line) => JSON.stringify(line)).join('\n')], { type: 'application/jsonl' }),
    'input.jsonl',
  );
  const file = await json(await on.request('/v1/files', { method: 'POST', body: form }));
  const created = await on.request('/v1/batches', {
    method: 'POST',
    json: { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' },
  });
  expect(created.status).toBe(200);
  return json(created);
}
