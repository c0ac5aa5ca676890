import { describe, expect, it } from 'vitest';
import { cacheKeysOf, type CachedTurn } from '../../../src/core/cache/cache-keys.js';
import { replayedBatches } from '../../../src/core/cache/stored-answer.js';
import type { ChatStreamEvent } from '../../../src/providers/contracts/chat.js';

const turn = (extra: Partial<CachedTurn> = {}): CachedTurn => ({
  temperature: 0,
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'What is the capital of France?' },
  ],
  ...extra,
});

describe('the response cache key', () => {
  const keys = (t: CachedTurn, scope = 'key:a', form: 'json' | 'stream' = 'json') =>
    cacheKeysOf(scope, 'model', form, t);

  it('is the same for the same turn in any field order, with absent fields left out', () => {
    const reordered: CachedTurn = { messages: turn().messages, tools: undefined, temperature: 0 };
    expect(keys(reordered).exact).toBe(keys(turn()).exact);
  });

  it('differs by scope, form, sampling parameters, tools and response format', () => {
    const base = keys(turn()).exact;
    expect(keys(turn(), 'key:b').exact).not.toBe(base);
    expect(keys(turn(), 'key:a', 'stream').exact).not.toBe(base);
    expect(keys(turn({ max_tokens: 5 })).exact).not.toBe(base);
    expect(keys(turn({ seed: 1 })).exact).not.toBe(base);
    expect(keys(turn({ response_format: { type: 'json_object' } })).exact).not.toBe(base);
    const tool = { type: 'function' as const, function: { name: 'f', parameters: { type: 'object' } } };
    expect(keys(turn({ tools: [tool] })).exact).not.toBe(base);
  });

  it('names an entry as the gateway always has, so a cache stored by an earlier version still answers', () => {
    const asked = cacheKeysOf('key:k1', 'model', 'json', {
      ...turn({ stop: ['x'], response_format: { type: 'json_object' } }),
      tools: [
        { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { b: {}, a: {} } } } },
      ],
    });
    expect(asked.exact).toBe('aPwbFxJCnMY8FdRMBBE1teDgjSQ8Ts3vLw1Z2FgQzpU');
    expect(asked.context).toBe('L8BANhTVE1qhSbjdPRqMa8RvnGes-lJbwnrktgsGBi8');
  });

  it('leaves only the last user message text out of the context key', () => {
    const asked = keys(turn());
    const reworded = keys(
      turn({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'France: capital?' },
        ],
      }),
    );
    expect(reworded.exact).not.toBe(asked.exact);
    expect(reworded.context).toBe(asked.context);
    expect(asked.fuzzyText).toBe('What is the capital of France?');
    const otherSystem = keys(
      turn({
        messages: [
          { role: 'system', content: 'Be long.' },
          { role: 'user', content: 'What is the capital of France?' },
        ],
      }),
    );
    expect(otherSystem.context).not.toBe(asked.context);
  });
});

it('replays a stored stream as one batch of its events, in their order, within one turn of the event loop', async () => {
  const batches: ChatStreamEvent[][] = [
    [{ type: 'delta', index: 0, content: 'a' }],
    [
      { type: 'delta', index: 0, content: 'b' },
      { type: 'finish', index: 0, finish_reason: 'stop' },
    ],
  ];
  const seen: string[] = [];
  setImmediate(() => seen.push('turn'));
  for await (const batch of replayedBatches(batches)) seen.push(batch.map((event) => event.type).join('+'));
  expect(seen).toEqual(['delta+delta+finish']);
});
