import { describe, expect, it } from 'vitest';
import { parseResultLines, resultText } from '../../../src/features/batches/batch-result-lines';
import { buildBatchJsonl } from '../../../src/features/batches/build-batch-jsonl';

describe('buildBatchJsonl', () => {
  it('writes one chat request line per prompt, skipping empty prompts', () => {
    const jsonl = buildBatchJsonl(
      [
        { customId: 'a', prompt: 'Hello' },
        { customId: '', prompt: '  ' },
        { customId: '', prompt: 'Bye' },
      ],
      { endpoint: '/v1/chat/completions', model: 'm', maxTokens: 16 },
    );
    const lines = jsonl.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      {
        custom_id: 'a',
        method: 'POST',
        url: '/v1/chat/completions',
        body: { model: 'm', messages: [{ role: 'user', content: 'Hello' }], max_tokens: 16 },
      },
      {
        custom_id: 'request-2',
        method: 'POST',
        url: '/v1/chat/completions',
        body: { model: 'm', messages: [{ role: 'user', content: 'Bye' }], max_tokens: 16 },
      },
    ]);
  });

  it('shapes bodies for embeddings and completions', () => {
    const embed = JSON.parse(
      buildBatchJsonl([{ customId: 'e', prompt: 'x' }], { endpoint: '/v1/embeddings', model: 'm', maxTokens: null }),
    ) as { body: unknown };
    expect(embed.body).toEqual({ model: 'm', input: 'x' });
    const complete = JSON.parse(
      buildBatchJsonl([{ customId: 'c', prompt: 'x' }], { endpoint: '/v1/completions', model: 'm', maxTokens: null }),
    ) as { body: unknown };
    expect(complete.body).toEqual({ model: 'm', prompt: 'x' });
  });
});

describe('result lines', () => {
  it('reads answers and errors and skips broken lines', () => {
    const lines = parseResultLines(
      [
        JSON.stringify({
          id: '1',
          custom_id: 'a',
          response: { status_code: 200, request_id: 'r', body: { choices: [{ message: { content: 'Hi' } }] } },
          error: null,
        }),
        'not json',
        JSON.stringify({ id: '2', custom_id: 'b', response: null, error: { message: 'model not found' } }),
      ].join('\n'),
    );
    expect(lines.map(resultText)).toEqual(['Hi', 'model not found']);
  });
});
