import { describe, expect, it } from 'vitest';
import { reassembledStream } from '../../../src/core/request-log/reassembled-stream.js';

describe('a replayed stream put back together', () => {
  it('joins text completion chunks per choice, with the last usage and finish reason', () => {
    const chunk = (index: number, text: string, finish: string | null) => ({
      id: 'cmpl-1',
      object: 'text_completion',
      created: 1,
      model: 'm',
      choices: [{ index, text, finish_reason: finish }],
    });
    expect(
      reassembledStream([
        chunk(1, 'b', null),
        chunk(0, 'a', null),
        chunk(0, 'c', 'stop'),
        chunk(1, 'd', 'length'),
        { ...chunk(0, '', null), choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } },
      ]),
    ).toEqual({
      body: {
        id: 'cmpl-1',
        object: 'text_completion',
        created: 1,
        model: 'm',
        choices: [
          { index: 0, text: 'ac', finish_reason: 'stop' },
          { index: 1, text: 'bd', finish_reason: 'length' },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 2 },
      },
    });
  });

  it('keeps whole tool calls and the error frame of a stream that failed after it started', () => {
    const call = { index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const answer = reassembledStream([
      { id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { role: 'assistant' } }] },
      { id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { tool_calls: [call] } }] },
      { object: 'error', code: 'upstream_error', message: 'cut off', type: 'upstream_error', param: null },
    ]);
    expect(answer).toMatchObject({
      body: {
        object: 'chat.completion',
        choices: [{ message: { role: 'assistant', content: '', tool_calls: [call] } }],
      },
      error: { code: 'upstream_error', message: 'cut off' },
    });
  });

  it('answers a Responses stream with its final response, and anything else with its last frame', () => {
    const response = { id: 'resp_1', object: 'response', status: 'completed', output: [] };
    expect(
      reassembledStream([
        { type: 'response.created', response: { ...response, status: 'in_progress' } },
        { type: 'response.output_text.delta', delta: 'x' },
        { type: 'response.completed', response },
      ]),
    ).toEqual({ body: response });
    expect(reassembledStream([{ a: 1 }, { b: 2 }])).toEqual({ body: { b: 2 } });
    expect(reassembledStream([])).toEqual({ body: null });
  });
});
