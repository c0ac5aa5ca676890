import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatBatch } from '../../support/chat-batch.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { readSse } from '../../support/sse.js';
import { ADMIN_KEY, json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY } from '../../support/upstream-config.js';

let upstream: FakeUpstream;
let gateway: TestGateway;

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz012345';
const VALID_IBAN = 'DE89 3704 0044 0532 0130 00';
const BAD_IBAN = 'DE88 3704 0044 0532 0130 00';
const VISA = '4111 1111 1111 1111';
const NOT_A_CARD = '4111 1111 1111 1112';

const INPUT_RULES = {
  input: [
    { name: 'no-secrets', type: 'pii', entities: ['secret'], action: 'block' },
    { name: 'codename', type: 'regex', patterns: ['(?i)project\\s+nightingale'], action: 'block' },
    { name: 'personal-data', type: 'pii', entities: ['email', 'phone', 'card', 'iban'], action: 'redact' },
    { name: 'watch-refunds', type: 'regex', patterns: ['\\brefund\\b'], action: 'flag' },
    { name: 'no-violence', type: 'moderation', model: 'up-moderation', action: 'block' },
  ],
};
const OUTPUT_RULES = {
  output: [
    { name: 'no-leak', type: 'regex', patterns: ['internal-only'], action: 'block' },
    { name: 'answer-pii', type: 'pii', action: 'redact' },
  ],
};

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
  const provider = { base_url: upstream.url, api_key: UPSTREAM_KEY };
  gateway = await startGateway({
    config: {
      providers: [
        { id: 'up', type: 'openai', ...provider },
        { id: 'native', type: 'openai', ...provider, responses_api: true },
        { id: 'codestral', type: 'mistral', ...provider },
      ],
      models: [
        {
          id: 'guarded',
          provider: 'up',
          upstream_model: 'm',
          capabilities: ['chat', 'completions'],
          guardrails: INPUT_RULES,
        },
        {
          id: 'guarded-out',
          provider: 'up',
          upstream_model: 'm',
          capabilities: ['chat', 'completions'],
          guardrails: OUTPUT_RULES,
        },
        {
          id: 'guarded-native',
          provider: 'native',
          upstream_model: 'n',
          capabilities: ['chat'],
          guardrails: INPUT_RULES,
        },
        {
          id: 'guarded-fim',
          provider: 'codestral',
          upstream_model: 'c',
          capabilities: ['completions'],
          guardrails: { ...INPUT_RULES, ...OUTPUT_RULES },
        },
        { id: 'up-moderation', provider: 'up', upstream_model: 'omni', capabilities: ['moderation'] },
        { id: 'plain', provider: 'up', upstream_model: 'p', capabilities: ['chat', 'completions'] },
      ],
    },
  });
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const post = (path: string, body: unknown) => gateway.request(path, { method: 'POST', json: body });
const chat = (model: string, content: string, extra: Record<string, unknown> = {}) =>
  post('/v1/chat/completions', { model, messages: [{ role: 'user', content }], ...extra });
const lastSent = () => JSON.stringify(upstream.requests.at(-1)?.body);

async function expectBlocked(response: Response, rule: string) {
  expect(response.status).toBe(400);
  expect(await json(response)).toMatchObject({
    object: 'error',
    type: 'invalid_request_error',
    code: 'guardrail_blocked',
    message: expect.stringContaining(`"${rule}"`),
  });
}

/** A stream's text and its error frame, if any. */
async function streamed(response: Response): Promise<{ text: string; error?: Json }> {
  const frames = (await readSse(response)) as Json[];
  const text = frames
    .filter((frame) => frame !== '[DONE]' && frame.choices)
    .map((frame) => frame.choices[0]?.delta?.content ?? frame.choices[0]?.text ?? '')
    .join('');
  return { text, error: frames.find((frame) => frame !== '[DONE]' && frame.object === 'error') };
}

describe('guardrails on a route', () => {
  it('chat completions: e-mails, phones, Luhn-valid cards and mod-97-valid IBANs are redacted before the upstream sees them', async () => {
    const text = `Mail jane.doe@example.com or call +44 20 7946 0958. Card ${VISA}, not ${NOT_A_CARD}. IBAN ${VALID_IBAN}, not ${BAD_IBAN}.`;
    const response = await chat('guarded', text);
    expect(response.status).toBe(200);
    const sent = lastSent();
    expect(sent).toContain('[REDACTED:email]');
    expect(sent).toContain('[REDACTED:phone]');
    expect(sent).toContain('[REDACTED:card]');
    expect(sent).toContain('[REDACTED:iban]');
    for (const gone of ['jane.doe@example.com', '7946 0958', VISA, VALID_IBAN]) expect(sent).not.toContain(gone);
    // Failing checksums are not card or IBAN numbers.
    expect(sent).toContain(NOT_A_CARD);
    expect(sent).toContain(BAD_IBAN);
  });

  it('chat completions: a secret, a denied pattern or content the moderation route flags is refused with 400 naming the rule, and never sent', async () => {
    const before = upstream.requests.length;
    await expectBlocked(await chat('guarded', `my key is ${SECRET}`), 'no-secrets');
    await expectBlocked(await chat('guarded', 'Tell me about Project  Nightingale'), 'codename');
    const openai = new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    await expect(
      openai.chat.completions.create({
        model: 'guarded',
        messages: [{ role: 'user', content: `AKIAIOSFODNN7EXAMPLE` }],
      }),
    ).rejects.toMatchObject({ status: 400, code: 'guardrail_blocked' });
    // Only the moderation call went upstream for the moderated one.
    await expectBlocked(await chat('guarded', 'this is forbidden'), 'no-violence');
    expect(upstream.requests.slice(before).map((request) => request.path)).toEqual(['/v1/moderations']);
  });

  it('a flag is recorded in the request log entry and as an event on the trace', async () => {
    const response = await chat('guarded', 'I want a refund');
    expect(response.status).toBe(200);
    const id = response.headers.get('x-request-id');
    await expect
      .poll(async () => (await json(await gateway.request(`/console/requests/${id}`))).guardrail_flags, {
        timeout: 5000,
      })
      .toEqual(['input:watch-refunds:flag']);
    const entry = await json(await gateway.request(`/console/requests/${id}`));
    const events = (entry.spans as Json[]).flatMap((span) => span.events ?? []);
    expect(events).toContainEqual(
      expect.objectContaining({
        name: 'guardrail',
        attributes: expect.objectContaining({
          'switchyard.guardrail.rule': 'watch-refunds',
          'switchyard.guardrail.action': 'flag',
        }),
      }),
    );
  });

  it('output: a whole answer is redacted; a stream is redacted across chunks and cut with an error frame when a rule blocks', async () => {
    const whole = await json(await chat('guarded-out', 'write to jane.doe@example.com please'));
    expect(whole.choices[0].message.content).toBe('write to [REDACTED:email] please');

    // The fake upstream sends one word a chunk: the phone number arrives in four.
    const filler = 'word '.repeat(80);
    const redacted = await streamed(await chat('guarded-out', `${filler}call +44 20 7946 0958 now`, { stream: true }));
    expect(redacted.error).toBeUndefined();
    expect(redacted.text).toBe(`${filler}call [REDACTED:phone] now`);

    const cut = await streamed(await chat('guarded-out', `${filler}the internal-only plan`, { stream: true }));
    expect(cut.error).toMatchObject({ code: 'guardrail_blocked', message: expect.stringContaining('"no-leak"') });
    expect(cut.text).not.toContain('internal-only');
  });

  it("chat completions: tools' and response schemas' text passes the input rules; descriptions are redacted, other schema text is refused", async () => {
    const openai = new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const messages = [{ role: 'user' as const, content: 'look it up' }];
    const tool = (description: string, parameters: Record<string, unknown> = { type: 'object', properties: {} }) => ({
      type: 'function' as const,
      function: { name: 'lookup', description, parameters },
    });
    const format = (schema: Record<string, unknown>, description = 'the answer') => ({
      type: 'json_schema' as const,
      json_schema: { name: 'answer', description, schema },
    });
    const before = upstream.requests.length;
    const refused = (request: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>) =>
      expect(openai.chat.completions.create({ model: 'guarded', messages, ...request })).rejects;
    await refused({ tools: [tool(`Use the key ${SECRET}`)] }).toMatchObject({ status: 400, code: 'guardrail_blocked' });
    await refused({
      tools: [
        tool('Look up', { type: 'object', properties: { q: { type: 'string', description: 'Project Nightingale' } } }),
      ],
    }).toMatchObject({ status: 400, message: expect.stringContaining('"codename"') });
    await refused({ tools: [tool('This is forbidden')] }).toMatchObject({
      status: 400,
      message: expect.stringContaining('"no-violence"'),
    });
    await refused({
      response_format: format({ type: 'string', enum: ['jane.doe@example.com', 'other'] }),
    }).toMatchObject({ status: 400, message: expect.stringMatching(/"personal-data".*not redacted/) });
    await refused({ stop: ['END', SECRET] }).toMatchObject({
      status: 400,
      message: expect.stringContaining('"no-secrets"'),
    });
    // History: an earlier tool call's arguments and a tool's result are input like any message.
    await refused({
      messages: [
        ...messages,
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: `{"q":"${SECRET}"}` } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'nothing found' },
      ],
    }).toMatchObject({ status: 400, code: 'guardrail_blocked' });
    // Only moderation calls went upstream.
    expect(new Set(upstream.requests.slice(before).map((request) => request.path))).toEqual(
      new Set(['/v1/moderations']),
    );

    const answered = await openai.chat.completions.create({
      model: 'guarded',
      messages,
      tools: [
        tool('Finds a customer; escalate to jane.doe@example.com', {
          type: 'object',
          properties: { email: { type: 'string', description: 'e.g. ann@example.com' } },
          required: ['email'],
        }),
      ],
      response_format: format(
        {
          type: 'object',
          // A property named "description" is a name, not prose: its schema's own description is.
          properties: {
            phone: { type: 'string', title: 'Call +44 20 7946 0958' },
            description: { type: 'string', description: 'about ann@example.com' },
          },
        },
        'for jane.doe@example.com',
      ),
    });
    expect(answered.choices).toHaveLength(1);
    const sent = upstream.requests.at(-1)!.body as Json;
    expect(sent.tools[0].function).toEqual({
      name: 'lookup',
      description: 'Finds a customer; escalate to [REDACTED:email]',
      parameters: {
        type: 'object',
        properties: { email: { type: 'string', description: 'e.g. [REDACTED:email]' } },
        required: ['email'],
      },
    });
    expect(sent.response_format.json_schema).toMatchObject({
      name: 'answer',
      description: 'for [REDACTED:email]',
      schema: {
        type: 'object',
        properties: {
          phone: { type: 'string', title: 'Call [REDACTED:phone]' },
          description: { type: 'string', description: 'about [REDACTED:email]' },
        },
      },
    });
  });

  it('Responses API: a route that would pass through is translated to chat so its guardrails run', async () => {
    await expectBlocked(await post('/v1/responses', { model: 'guarded-native', input: `key ${SECRET}` }), 'no-secrets');
    const response = await post('/v1/responses', {
      model: 'guarded-native',
      input: 'reach me at jane.doe@example.com',
    });
    expect(response.status).toBe(200);
    expect(upstream.requests.at(-1)?.path).toBe('/v1/chat/completions');
    expect(lastSent()).toContain('[REDACTED:email]');
  });

  it('conversations and agents run the same checks', async () => {
    await expectBlocked(await post('/v1/conversations', { model: 'guarded', inputs: `key ${SECRET}` }), 'no-secrets');
    const agent = await json(await post('/v1/agents', { name: 'guarded helper', model: 'guarded' }));
    await expectBlocked(
      await post('/v1/agents/completions', {
        agent_id: agent.id,
        messages: [{ role: 'user', content: `key ${SECRET}` }],
      }),
      'no-secrets',
    );
    await expectBlocked(
      await post('/v1/conversations', { agent_id: agent.id, inputs: 'project nightingale' }),
      'codename',
    );
    const redacted = await post('/v1/conversations', { agent_id: agent.id, inputs: 'mail jane.doe@example.com' });
    expect(redacted.status).toBe(200);
    expect(lastSent()).toContain('[REDACTED:email]');
  });

  it('completions and FIM: prompts, suffixes and stop sequences are checked, answers too', async () => {
    await expectBlocked(await post('/v1/completions', { model: 'guarded', prompt: `key ${SECRET}` }), 'no-secrets');
    expect((await post('/v1/completions', { model: 'guarded', prompt: 'to jane.doe@example.com' })).status).toBe(200);
    expect(lastSent()).toContain('[REDACTED:email]');
    // A stop sequence is sent as it is: a redact rule that matches it refuses the request instead.
    const stop = await post('/v1/completions', { model: 'guarded', prompt: 'hi', stop: ['jane.doe@example.com'] });
    await expectBlocked(stop, 'personal-data');
    await expectBlocked(
      await post('/v1/fim/completions', { model: 'guarded-fim', prompt: 'def f():', suffix: `# ${SECRET}` }),
      'no-secrets',
    );
    const answer = await json(
      await post('/v1/fim/completions', { model: 'guarded-fim', prompt: 'call +44 20 7946 0958' }),
    );
    expect(answer.choices[0].message.content).toBe('call [REDACTED:phone]');
    const stream = await streamed(
      await post('/v1/fim/completions', { model: 'guarded-fim', prompt: 'the internal-only plan', stream: true }),
    );
    expect(stream.error).toMatchObject({ code: 'guardrail_blocked' });
    expect(stream.text).not.toContain('internal-only');
  });

  it('batches: each line passes the same checks', async () => {
    const batch = await createChatBatch(gateway, [
      {
        custom_id: 'ok',
        method: 'POST',
        url: '/v1/chat/completions',
        body: { model: 'guarded', messages: [{ role: 'user', content: 'mail jane.doe@example.com' }] },
      },
      {
        custom_id: 'secret',
        method: 'POST',
        url: '/v1/chat/completions',
        body: { model: 'guarded', messages: [{ role: 'user', content: SECRET }] },
      },
    ]);
    await expect
      .poll(async () => (await json(await gateway.request(`/v1/batches/${batch.id}`))).status, { timeout: 20_000 })
      .toBe('completed');
    const done = await json(await gateway.request(`/v1/batches/${batch.id}`));
    const lines = async (fileId: string) =>
      (await (await gateway.request(`/v1/files/${fileId}/content`)).text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Json);
    const output = await lines(done.output_file_id);
    const all = [...output, ...(done.error_file_id ? await lines(done.error_file_id) : [])];
    const byId = Object.fromEntries(all.map((line) => [line.custom_id, line]));
    expect(byId.ok.response.body.choices[0].message.content).toBe('mail [REDACTED:email]');
    expect(byId.secret.response ?? byId.secret.error).toMatchObject(
      byId.secret.response ? { status_code: 400, body: { code: 'guardrail_blocked' } } : { code: 'guardrail_blocked' },
    );
  });

  it('the Settings API takes a route with guardrails, and refuses a pattern RE2 cannot run with 422 naming the rule', async () => {
    const bad = await gateway.request('/settings/routes/console-guarded', {
      method: 'PUT',
      json: {
        provider: 'up',
        capabilities: ['chat'],
        guardrails: { input: [{ name: 'backref', type: 'regex', patterns: ['(a)\\1'], action: 'block' }] },
      },
    });
    expect(bad.status).toBe(422);
    expect(await json(bad)).toMatchObject({
      code: 'invalid_guardrail',
      param: 'guardrails',
      message: expect.stringContaining('"backref"'),
    });
    const good = await gateway.request('/settings/routes/console-guarded', {
      method: 'PUT',
      json: {
        provider: 'up',
        capabilities: ['chat'],
        guardrails: { input: [{ name: 'emails', type: 'pii', entities: ['email'], action: 'block' }] },
      },
    });
    expect(good.status).toBe(200);
    await expectBlocked(await chat('console-guarded', 'a@b.example.com'), 'emails');
  });

  it("a key's guardrails run on every request it makes, on any route; another key is not affected", async () => {
    const created = await post('/account/keys', {
      name: 'guarded key',
      guardrails: { input: [{ name: 'key-secrets', type: 'pii', entities: ['secret'], action: 'block' }] },
    });
    expect(created.status).toBe(201);
    const key = await json(created);
    expect(key.guardrails).toEqual({
      input: [{ name: 'key-secrets', type: 'pii', entities: ['secret'], action: 'block' }],
    });
    const asKey = (path: string, body: unknown) => gateway.request(path, { method: 'POST', json: body, key: key.key });
    const message = { model: 'plain', messages: [{ role: 'user', content: `key ${SECRET}` }] };
    await expectBlocked(await asKey('/v1/chat/completions', message), 'key-secrets');
    await expectBlocked(await asKey('/v1/completions', { model: 'plain', prompt: SECRET }), 'key-secrets');
    await expectBlocked(await asKey('/v1/conversations', { model: 'plain', inputs: SECRET }), 'key-secrets');
    // Its route's rules run too: the key's first, then the route's.
    await expectBlocked(
      await asKey('/v1/chat/completions', {
        model: 'guarded',
        messages: [{ role: 'user', content: 'project nightingale' }],
      }),
      'codename',
    );
    expect((await post('/v1/chat/completions', message)).status).toBe(200);

    const bad = await gateway.request(`/account/keys/${key.id}`, {
      method: 'PATCH',
      json: { guardrails: { output: [{ name: 'look-ahead', type: 'regex', patterns: ['a(?=b)'], action: 'flag' }] } },
    });
    expect(bad.status).toBe(422);
    expect(await json(bad)).toMatchObject({ code: 'invalid_guardrail', param: 'guardrails' });
    const cleared = await gateway.request(`/account/keys/${key.id}`, { method: 'PATCH', json: { guardrails: null } });
    expect(await json(cleared)).toMatchObject({ guardrails: null });
    expect((await asKey('/v1/chat/completions', message)).status).toBe(200);
  });
});
