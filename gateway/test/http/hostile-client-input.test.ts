import { expect, it } from 'vitest';
import { drawTextImage } from '../support/draw-text.js';
import { createMemberKey, startLatencyProbe, type ProbeReport } from '../support/latency-probe.js';
import { json, type Json, type TestGateway } from '../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../support/use-resources.js';

// Issue 31, findings 1 and 2: client strings and client JSON schemas that froze every request.
// 1. "A" + 150,000 spaces + "!" as an image: the base64 check backtracked quadratically (16.4 s).
// 2. A schema whose propertyNames pattern is ^(a+)+$ and a property named 32 a's and a "!" (25 s),
//    and a 3 MB schema of 50,000 properties (4.5 s, then "Maximum call stack size exceeded").
// Sizes here freeze today's code for several seconds each and are answered at once once fixed.

/** The slowest another key may wait while an attack runs. */
const WORST_PROBE_MS = 500;

interface Outcome {
  status: number;
  body: Json;
  report: ProbeReport;
  elapsedMs: number;
}

/** Sends one attack while another Member key polls GET /v1/models. */
async function whileProbed(gateway: TestGateway, probeKey: string, attack: () => Promise<Response>): Promise<Outcome> {
  const probe = startLatencyProbe(gateway, probeKey);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = performance.now();
  const response = await attack();
  const body = await json(response);
  const elapsedMs = performance.now() - started;
  return { status: response.status, body, report: await probe.stop(), elapsedMs };
}

/** A gateway whose OCR engine is warm (a first OCR done), an attacker key and a probe key. */
async function ocrGateway(): Promise<{ gateway: TestGateway; attacker: string; probe: string; page: string }> {
  const gateway = await useGateway();
  const drawn = await drawTextImage([{ text: 'Invoice number 42', x: 20, y: 50, size: 28 }], {
    width: 360,
    height: 90,
  });
  const page = `data:image/png;base64,${drawn.image.toString('base64')}`;
  const attacker = await createMemberKey(gateway, 'attacker');
  const warm = await gateway.request('/v1/ocr', { method: 'POST', key: attacker, json: { image: page } });
  expect(warm.status).toBe(200);
  return { gateway, attacker, probe: await createMemberKey(gateway), page };
}

const spacesThenBang = (spaces: number): string => `A${' '.repeat(spaces)}!`;

it('answers a long run of whitespace before a bad character with 422 at once on /v1/vision/analyze, /v1/ocr/render and /v1/ocr (finding 1)', async () => {
  const gateway = await useGateway();
  const attacker = await createMemberKey(gateway, 'attacker');
  const probe = await createMemberKey(gateway);
  // 60,000 spaces: about 4 s per request for the quadratic check on an idle core.
  const image = spacesThenBang(60_000);
  const attacks: [string, Record<string, unknown>, string][] = [
    ['/v1/vision/analyze', { image, prompt: 'What is shown?' }, 'invalid_document'],
    ['/v1/ocr/render', { image }, 'invalid_document'],
    ['/v1/ocr', { image }, 'invalid_document'],
    ['/v1/ocr', { image: `data:image/png;base64,${image}` }, 'invalid_base64'],
  ];
  for (const [path, body, code] of attacks) {
    const outcome = await whileProbed(gateway, probe, () =>
      gateway.request(path, { method: 'POST', key: attacker, json: body }),
    );
    expect(outcome.status, path).toBe(422);
    expect(outcome.body, path).toMatchObject({ object: 'error', type: 'invalid_request_error', code, param: 'image' });
    expect(outcome.elapsedMs, path).toBeLessThan(1500);
    expect(outcome.report.worstMs, path).toBeLessThan(WORST_PROBE_MS);
  }
});

it('still reads base64 with line breaks and padding (data URL and bare) and percent-encoded data URLs', async () => {
  const gateway = await useGateway();
  const drawn = await drawTextImage([{ text: 'Hello', x: 10, y: 40, size: 28 }], { width: 160, height: 60 });
  const wrapped = drawn.image.toString('base64').replace(/.{76}/g, '$&\r\n').concat('  \n');
  // Percent-encoded: lowercase letters as they are, every other byte as %XX.
  const percent = [...drawn.image]
    .map((byte) =>
      byte >= 0x61 && byte <= 0x7a ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');
  for (const image of [`data:image/png;base64,${wrapped}`, wrapped, `data:image/png,${percent}`]) {
    const response = await gateway.request('/v1/ocr/render', { method: 'POST', json: { image } });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ width: 160, height: 60 });
  }
});

// The property is found by its description on the drawn page ("Invoice number 42"), so the answer holds
// it and its name is checked against the pattern (a field left null is left out of the check).
const REDOS_SCHEMA = (as: number) => ({
  type: 'object',
  propertyNames: { pattern: '^(a+)+$' },
  properties: { [`${'a'.repeat(as)}!`]: { type: 'string', description: 'invoice number' } },
});

it('checks a property name against ^(a+)+$ in linear time: OCR structured_output answers 422 while another key is served (finding 2)', async () => {
  const { gateway, attacker, probe, page } = await ocrGateway();
  // 26 a's: several seconds of backtracking in V8 (32 took 25 s), linear on RE2.
  const outcome = await whileProbed(gateway, probe, () =>
    gateway.request('/v1/ocr', {
      method: 'POST',
      key: attacker,
      json: { image: page, structured_output: true, schema: REDOS_SCHEMA(26) },
    }),
  );
  expect(outcome.status).toBe(422);
  expect(outcome.body).toMatchObject({ object: 'error', code: 'schema_not_satisfied', param: 'schema' });
  expect(outcome.body.message).toContain('must match pattern "^(a+)+$"');
  expect(outcome.report.worstMs).toBeLessThan(WORST_PROBE_MS);
  expect(outcome.elapsedMs).toBeLessThan(5000);
});

it("does the same for Mistral's document_annotation_format, and refuses a pattern RE2 cannot run by name (finding 2)", async () => {
  const { gateway, attacker, probe, page } = await ocrGateway();
  const mistral = (schema: Record<string, unknown>) =>
    gateway.request('/v1/ocr', {
      method: 'POST',
      key: attacker,
      json: {
        document: { type: 'image_url', image_url: page },
        document_annotation_format: { type: 'json_schema', json_schema: { name: 'doc', schema } },
      },
    });
  const outcome = await whileProbed(gateway, probe, () => mistral(REDOS_SCHEMA(26)));
  expect(outcome.status).toBe(422);
  expect(outcome.body).toMatchObject({
    object: 'error',
    code: 'schema_not_satisfied',
    param: 'document_annotation_format',
  });
  expect(outcome.report.worstMs).toBeLessThan(WORST_PROBE_MS);
  expect(outcome.elapsedMs).toBeLessThan(5000);

  const lookahead = await mistral({ type: 'object', properties: { id: { type: 'string', pattern: '^(?=\\d)\\w+$' } } });
  expect(lookahead.status).toBe(422);
  const refused = await json(lookahead);
  expect(refused).toMatchObject({
    object: 'error',
    type: 'invalid_request_error',
    code: 'unsupported_pattern',
    param: 'document_annotation_format',
  });
  expect(refused.message).toContain('^(?=\\\\d)\\\\w+$');
});

// The finding's 3 MB body of 50,000 properties is refused the same way (see client-schema-checker.test.ts), but
// parsing a body of 150,000 objects alone holds the event loop 0.2 to 0.7 s on a busy two-core machine: the
// body parser's cost, not the schema's. 10,000 properties (700 KB) kept Ajv compiling for many seconds.
it('refuses a schema of 10,000 properties with 422 naming the limit, before compiling it (finding 2)', async () => {
  const { gateway, attacker, probe, page } = await ocrGateway();
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 10_000; i++)
    properties[`field_${i}`] = { type: 'string', description: 'A field of the form, as printed on it.' };
  const schema = { type: 'object', properties };
  for (const [body, param] of [
    [{ image: page, structured_output: true, schema }, 'schema'],
    [
      {
        document: { type: 'image_url', image_url: page },
        document_annotation_format: { type: 'json_schema', json_schema: { name: 'doc', schema } },
      },
      'document_annotation_format',
    ],
  ] as const) {
    // Written before the probe starts: the test's own JSON.stringify runs on the gateway's event loop too.
    const text = JSON.stringify(body);
    const outcome = await whileProbed(gateway, probe, () =>
      gateway.request('/v1/ocr', {
        method: 'POST',
        key: attacker,
        headers: { 'content-type': 'application/json' },
        body: text,
      }),
    );
    expect(outcome.status, param).toBe(422);
    expect(outcome.body, param).toMatchObject({
      object: 'error',
      type: 'invalid_request_error',
      code: 'schema_too_large',
      param,
    });
    expect(outcome.body.message, param).toMatch(
      /(more than 10000 values|larger than 256 KiB of JSON).*server\.schema_max_(nodes|kb)/,
    );
    expect(outcome.report.worstMs, param).toBeLessThan(WORST_PROBE_MS);
    expect(outcome.elapsedMs, param).toBeLessThan(2000);
  }
});

it('applies the same limits to chat response_format schemas and tool parameters (the local engine makes a grammar of them), before any provider sees them', async () => {
  const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  const gateway = await useGateway({ config: upstreamConfig(upstream) });
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 10_000; i++) properties[`field_${i}`] = { type: 'string' };
  const huge = { type: 'object', properties };
  const small = { type: 'object', properties: { city: { type: 'string', pattern: '^[A-Z]' } }, required: ['city'] };
  const messages = [{ role: 'user', content: 'Hello' }];
  const tool = (parameters: Record<string, unknown>) => ({
    type: 'function',
    function: { name: 'lookup', parameters },
  });
  const refusals: [string, Record<string, unknown>, string][] = [
    [
      '/v1/chat/completions',
      { messages, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: huge } } },
      'response_format',
    ],
    ['/v1/chat/completions', { messages, tools: [tool(small), tool(huge)] }, 'tools[1]'],
    [
      '/v1/responses',
      { input: 'Hello', text: { format: { type: 'json_schema', name: 'x', schema: huge } } },
      'text.format',
    ],
  ];
  for (const [path, body, param] of refusals) {
    const response = await gateway.request(path, { method: 'POST', json: body });
    expect(response.status, param).toBe(422);
    expect(await json(response), param).toMatchObject({
      object: 'error',
      type: 'invalid_request_error',
      code: 'schema_too_large',
      param,
    });
  }
  expect(upstream.requests).toHaveLength(0);
  const served = await gateway.request('/v1/chat/completions', {
    method: 'POST',
    json: {
      messages,
      tools: [tool(small)],
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: small } },
    },
  });
  expect(served.status).toBe(200);
  expect(upstream.requests).toHaveLength(1);
});

it('takes the schema limits from the config file (server.schema_max_kb, schema_max_depth, schema_max_nodes)', async () => {
  const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  const gateway = await useGateway({
    config: { ...upstreamConfig(upstream), server: { schema_max_kb: 1, schema_max_depth: 4, schema_max_nodes: 50 } },
  });
  const chat = (schema: Record<string, unknown>) =>
    gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: {
        messages: [{ role: 'user', content: 'Hi' }],
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
      },
    });
  const cases: [Record<string, unknown>, string][] = [
    [{ type: 'string', description: 'x'.repeat(2000) }, 'larger than 1 KiB of JSON'],
    [
      { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } } } },
      'nested more than 4 levels deep',
    ],
    [{ enum: Array.from({ length: 60 }, (_, i) => i) }, 'more than 50 values'],
  ];
  for (const [schema, problem] of cases) {
    const response = await chat(schema);
    expect(response.status, problem).toBe(422);
    const body = await json(response);
    expect(body, problem).toMatchObject({ code: 'schema_too_large', param: 'response_format' });
    expect(body.message, problem).toContain(problem);
  }
  expect((await chat({ type: 'object', properties: { a: { type: 'string' } } })).status).toBe(200);
});
