import { afterAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors/gateway-error.js';
import { ClientSchemaChecker, type ClientSchemaLimits } from '../../../src/core/json/client-schema-checker.js';

const LIMITS: ClientSchemaLimits = { maxBytes: 256 * 1024, maxDepth: 32, maxNodes: 10_000, jobTimeoutMs: 10_000 };
const checkers: ClientSchemaChecker[] = [];
const checker = (limits: Partial<ClientSchemaLimits> = {}): ClientSchemaChecker => {
  const made = new ClientSchemaChecker({ ...LIMITS, ...limits });
  checkers.push(made);
  return made;
};
afterAll(() => Promise.all(checkers.map((made) => made.close())));

const signal = new AbortController().signal;

/** The 422 a compile (or check) ends with. */
async function refusal(work: Promise<unknown>): Promise<GatewayError> {
  const error: unknown = await work.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

/** The longest the event loop went without running a timer while `work` ran (ms). */
async function worstTimerLag<T>(work: Promise<T>): Promise<{ value: T; lagMs: number }> {
  let lagMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lagMs = Math.max(lagMs, now - last);
    last = now;
  }, 10);
  try {
    return { value: await work, lagMs };
  } finally {
    clearInterval(timer);
  }
}

describe('client JSON schemas: patterns run on RE2', () => {
  const schemas = checker();

  it('keeps ordinary patterns working: anchors, classes, counts, Unicode properties, patternProperties, propertyNames', async () => {
    const validate = await schemas.compile(
      {
        type: 'object',
        properties: {
          code: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
          name: { type: 'string', pattern: '^\\p{Lu}\\p{L}*$' },
          email: { type: 'string', pattern: '^[\\w.+-]+@[\\w-]+\\.[\\w.-]+$' },
        },
        patternProperties: { '^x-[a-z]+$': { type: 'number' } },
        propertyNames: { pattern: '^[a-z][a-z-]*$' },
      },
      'schema',
      signal,
    );
    expect(await validate({ code: 'INV-2024', name: 'Émile', email: 'a.b@example.org', 'x-total': 3 })).toBeUndefined();
    expect(await validate({ code: 'IN-2024' })).toBe('/code must match pattern "^[A-Z]{3}-\\d+$"');
    expect(await validate({ name: 'émile' })).toMatch(/^\/name must match pattern/);
    expect(await validate({ 'x-total': 'three' })).toBe('/x-total must be number');
    expect(await validate({ Code: 'INV-1' })).toMatch(/property name must be valid|must match pattern/);
  });

  it('runs ^(a+)+$ in linear time: 10,000 a and a ! (V8 would not finish) answered at once, the event loop free', async () => {
    const validate = await schemas.compile(
      {
        type: 'object',
        properties: {
          names: { type: 'object', propertyNames: { pattern: '^(a+)+$' } },
          word: { type: 'string', pattern: '^(a+)+$' },
        },
      },
      'schema',
      signal,
    );
    const started = performance.now();
    const { value: problems, lagMs } = await worstTimerLag(
      Promise.all([validate({ names: { [`${'a'.repeat(32)}!`]: 1 } }), validate({ word: `${'a'.repeat(10_000)}!` })]),
    );
    expect(problems).toEqual(['/names must match pattern "^(a+)+$"', '/word must match pattern "^(a+)+$"']);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(lagMs).toBeLessThan(500);
    expect(await validate({ names: { aaaa: 1 }, word: 'aaa' })).toBeUndefined();
  });

  it.each([
    ['a backreference', '^(a)\\1$', 'invalid escape sequence'],
    ['a lookahead', '^(?=a)a$', 'invalid perl operator'],
    ['a lookbehind', '(?<!a)b', 'invalid perl operator'],
  ])('refuses %s with 422 unsupported_pattern naming the field and the pattern', async (_name, pattern, reason) => {
    const error = await refusal(
      schemas.compile(
        { type: 'object', properties: { id: { type: 'string', pattern } } },
        'document_annotation_format',
        signal,
      ),
    );
    expect(error).toMatchObject({ status: 422, code: 'unsupported_pattern', param: 'document_annotation_format' });
    expect(error.message).toContain(JSON.stringify(pattern));
    expect(error.message).toContain(reason);
    expect(error.message).toContain('backreferences and lookarounds are not supported');
  });

  it('refuses an invalid schema with 422 invalid_schema', async () => {
    const error = await refusal(schemas.compile({ type: 'strin' }, 'schema', signal));
    expect(error).toMatchObject({ status: 422, code: 'invalid_schema', param: 'schema' });
  });
});

describe('client JSON schemas: sizes checked before compiling', () => {
  const schemas = checker();

  it('refuses a 3 MB schema of 50,000 properties at once, naming the limit (it blocked 4.5 s, then overflowed the stack)', async () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 50_000; i++)
      properties[`field_${i}`] = { type: 'string', description: 'A field of the form, as printed on it.' };
    const started = performance.now();
    const error = await refusal(schemas.compile({ type: 'object', properties }, 'schema', signal));
    expect(performance.now() - started).toBeLessThan(500);
    expect(error).toMatchObject({ status: 422, code: 'schema_too_large', param: 'schema' });
    expect(error.message).toMatch(/more than 10000 values|larger than 256 KiB/);
  });

  it('names each limit: bytes, nesting, values', async () => {
    const big = await refusal(
      schemas.compile({ type: 'string', description: 'x'.repeat(300 * 1024) }, 'schema', signal),
    );
    expect(big.message).toContain('larger than 256 KiB of JSON');
    expect(big.message).toContain('server.schema_max_kb');

    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20; i++) deep = { type: 'object', properties: { inner: deep } };
    const nested = await refusal(schemas.compile(deep, 'bbox_annotation_format', signal));
    expect(nested).toMatchObject({ status: 422, code: 'schema_too_large', param: 'bbox_annotation_format' });
    expect(nested.message).toContain('nested more than 32 levels deep');

    const many = await refusal(
      schemas.compile({ enum: Array.from({ length: 10_001 }, (_, i) => i) }, 'schema', signal),
    );
    expect(many.message).toContain('more than 10000 values');
    expect(many.message).toContain('server.schema_max_nodes');
  });

  it('compiles a schema just within the limits off the event loop', async () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) properties[`field_${i}`] = { type: 'string', maxLength: 40 };
    const schema = { type: 'object', properties, required: ['field_0'] };
    const { value: validate, lagMs } = await worstTimerLag(schemas.compile(schema, 'schema', signal));
    expect(lagMs).toBeLessThan(500);
    expect(await validate({ field_0: 'a', field_2999: 'b' })).toBeUndefined();
    expect(await validate({ field_1: 'a' })).toBe("(root) must have required property 'field_0'");
  });
});

describe('client JSON schemas: a time budget per job', () => {
  it('stops a validation that is exponential in the depth of the value (allOf over $ref) with 422 schema_too_complex', async () => {
    const schemas = checker({ jobTimeoutMs: 1000 });
    const node = {
      type: 'object',
      properties: { x: { $ref: '#/$defs/node' } },
      allOf: [{ properties: { x: { $ref: '#/$defs/node' } } }],
    };
    const validate = await schemas.compile({ $defs: { node }, $ref: '#/$defs/node' }, 'schema', signal);
    let value: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) value = { x: value };
    const started = performance.now();
    const { value: error, lagMs } = await worstTimerLag(refusal(validate(value)));
    expect(error).toMatchObject({ status: 422, code: 'schema_too_complex', param: 'schema' });
    expect(error.message).toContain('1000 ms budget (server.schema_job_timeout_ms)');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(lagMs).toBeLessThan(500);
    // The thread that was stopped is replaced.
    let shallow: Record<string, unknown> = {};
    for (let i = 0; i < 5; i++) shallow = { x: shallow };
    expect(await validate(shallow)).toBeUndefined();
  });

  it('stops with the request', async () => {
    const schemas = checker();
    const controller = new AbortController();
    const node = {
      type: 'object',
      properties: { x: { $ref: '#/$defs/node' } },
      allOf: [{ properties: { x: { $ref: '#/$defs/node' } } }],
    };
    const validate = await schemas.compile({ $defs: { node }, $ref: '#/$defs/node' }, 'schema', controller.signal);
    let value: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) value = { x: value };
    const checking = validate(value);
    setTimeout(() => controller.abort(new Error('client left')), 200);
    const started = performance.now();
    await expect(checking).rejects.toThrow('client left');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
