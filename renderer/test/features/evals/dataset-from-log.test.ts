import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../../gateway/src/wire/request-log-entry-schema';
import { BODIES_OFF, rowFromLoggedRequest, rowsFromLoggedRequests } from '../../../src/features/evals/dataset-from-log';

const entry = (change: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  id: 'req_1',
  time: 0,
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  latency_ms: 5,
  key_prefix: 'sk-sy-ab',
  model: 'svc-large-3',
  prompt_tokens: 3,
  completion_tokens: 2,
  cost: 0,
  client: null,
  request_body: JSON.stringify({
    model: 'svc-large-3',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ type: 'text', text: 'Capital of France?' }] },
    ],
  }),
  response_body: JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Paris' } }] }),
  ...change,
});

describe('rowFromLoggedRequest', () => {
  it('takes the last user message as the input, the system prompt, and the answer as the reference', () => {
    expect(rowFromLoggedRequest(entry())).toEqual({
      row: { item: { input: 'Capital of France?', system: 'Be brief.', expected: 'Paris' } },
    });
  });

  it('says that bodies are not kept when the server setting is off', () => {
    expect(rowFromLoggedRequest(entry({ request_body: undefined, response_body: undefined }))).toEqual({
      problem: BODIES_OFF,
    });
    expect(BODIES_OFF).toContain('request_log_bodies');
  });

  it('keeps the prompt of a streamed or cut answer, with a note, and refuses a cut request', () => {
    expect(rowFromLoggedRequest(entry({ response_body: '[stream]' }))).toEqual({
      row: { item: { input: 'Capital of France?', system: 'Be brief.' } },
      note: 'The answer was streamed: the log keeps no streamed answer.',
    });
    expect(rowFromLoggedRequest(entry({ response_body: '{"choices": [… [cut from 9000 characters]' }))).toMatchObject({
      note: expect.stringMatching(/cut/),
    });
    expect(rowFromLoggedRequest(entry({ request_body: '{"messages": [… [cut from 9000 characters]' }))).toMatchObject({
      problem: expect.stringMatching(/cut/),
    });
    expect(rowFromLoggedRequest(entry({ path: '/v1/embeddings' }))).toMatchObject({ problem: expect.any(String) });
  });

  it('gives every row an expected field once any has one, so one template fits them all', () => {
    const { rows, notes } = rowsFromLoggedRequests([
      entry(),
      entry({ id: 'req_2', response_body: '[stream]' }),
      entry({ id: 'req_3', request_body: undefined }),
    ]);
    expect(rows.map((row) => row.item.expected)).toEqual(['Paris', '']);
    expect(notes.map((note) => note.id)).toEqual(['req_2', 'req_3']);
    expect(notes[1].text).toMatch(/^Left out: /);
  });
});
