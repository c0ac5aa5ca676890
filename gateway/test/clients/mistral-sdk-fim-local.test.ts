import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mistral } from '@mistralai/mistralai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, startGateway, type TestGateway } from '../support/start-gateway.js';
import { writeTinyLlamaGguf } from '../support/tiny-gguf.js';

/** The real llama.cpp engine with two generated GGUFs: `tiny-code` has FIM tokens, `tiny-chat` has none. */
let gateway: TestGateway;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchyard-fim-'));
  mkdirSync(join(dataDir, 'models'));
  await writeTinyLlamaGguf(join(dataDir, 'models', 'tiny-code.gguf'), { seed: 3, fim: true });
  await writeTinyLlamaGguf(join(dataDir, 'models', 'tiny-chat.gguf'), { seed: 3 });
  gateway = await startGateway({ dataDir, config: { providers: [{ id: 'local-llm', type: 'llamacpp', threads: 1 }] } });
});
afterAll(async () => {
  await gateway?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const client = () => new Mistral({ apiKey: ADMIN_KEY, serverURL: gateway.url });

describe('fill in the middle on the local llama.cpp engine, through the Mistral SDK', () => {
  it('fim.complete infills on a GGUF with FIM tokens', async () => {
    const answer = await client().fim.complete({
      model: 'tiny-code',
      prompt: 'def add(a, b):\n    ',
      suffix: '\n    return c',
      maxTokens: 6,
      temperature: 0,
    });
    expect(answer.model).toBe('tiny-code');
    expect(answer.choices[0]?.message?.content).toEqual(expect.any(String));
    expect(answer.choices[0]?.finishReason).toMatch(/^(stop|length)$/);
    expect(answer.usage.completionTokens).toBeGreaterThan(0);
    expect(answer.usage.promptTokens).toBeGreaterThan(0);
  });

  it('fim.stream sends the infill as chunks, then usage', async () => {
    const stream = await client().fim.stream({
      model: 'tiny-code',
      prompt: 'x = ',
      suffix: '\nprint(x)',
      maxTokens: 6,
      temperature: 0,
    });
    const chunks = [];
    for await (const event of stream) chunks.push(event.data);
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length).toBeGreaterThan(0);
    expect(chunks.some((chunk) => chunk.choices[0]?.finishReason)).toBe(true);
    expect(chunks.at(-1)?.usage?.completionTokens).toBeGreaterThan(0);
  });

  it('a GGUF without FIM tokens is a 400 that says so, streamed or not; without a suffix it completes', async () => {
    const refused = client().fim.complete({ model: 'tiny-chat', prompt: 'x = ', suffix: ';', maxTokens: 4 });
    await expect(refused).rejects.toMatchObject({ statusCode: 400 });
    await expect(refused).rejects.toThrow(/no fill-in-the-middle tokens/);
    await expect(
      client().fim.stream({ model: 'tiny-chat', prompt: 'x = ', suffix: ';', maxTokens: 4 }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const plain = await client().fim.complete({ model: 'tiny-chat', prompt: 'Once', maxTokens: 4 });
    expect(plain.choices[0]?.message?.content).toEqual(expect.any(String));
  });
});
