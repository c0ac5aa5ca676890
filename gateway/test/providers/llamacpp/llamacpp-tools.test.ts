import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileClientSchemaHere, firstProblem } from '../../../src/core/json/client-schema-thread.js';
import { toChatHistory } from '../../../src/providers/llamacpp/to-chat-history.js';
import { ANY_JSON_VALUE, toGrammarJsonSchema } from '../../../src/providers/llamacpp/to-grammar-json-schema.js';
import type { ChatChoice, ChatProvider, ChatRequest, ChatStreamEvent } from '../../../src/providers/contracts/chat.js';
import type { ToolDefinition } from '../../../src/wire/tool-schemas.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import {
  createTinyLlamaCppProvider,
  createTinyModelFolder,
  type TinyModelFolder,
} from '../../support/tiny-gguf-provider.js';
import { collect } from '../../support/collect.js';

let folder: TinyModelFolder;
let provider: ProviderInstance;
let chat: ChatProvider;

beforeAll(async () => {
  folder = await createTinyModelFolder();
  provider = createTinyLlamaCppProvider(folder.dir);
  chat = provider.capabilities.chat!;
});

afterAll(async () => {
  await provider?.close();
  await folder?.remove();
});

const tool = (name: string, parameters?: Record<string, unknown>): ToolDefinition => ({
  type: 'function',
  function: { name, description: `The ${name} tool.`, ...(parameters ? { parameters } : {}) },
});

const TOOLS: ToolDefinition[] = [
  tool('get_weather', {
    type: 'object',
    properties: {
      city: { type: 'string', enum: ['Paris', 'Oslo'] },
      unit: { anyOf: [{ enum: ['celsius', 'fahrenheit'] }, { type: 'null' }] },
      tomorrow: { type: 'boolean' },
    },
    required: ['city'],
    additionalProperties: false,
  }),
  tool('get_time'),
  tool('search', {
    type: 'object',
    // Free text would run to max_tokens with random weights; a date is a string the grammar bounds.
    properties: {
      topic: { enum: ['news', 'sport'] },
      since: { type: 'string', format: 'date' },
      filters: { $ref: '#/$defs/Filters' },
    },
    required: ['topic'],
    $defs: { Filters: { type: 'object', properties: { recent: { type: 'boolean' } }, additionalProperties: false } },
  }),
];

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false };

function chatRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model: folder.model,
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    tools: TOOLS,
    max_tokens: 200,
    temperature: 1,
    seed: 1,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Asserts a valid call to one of `allowed` whose arguments match that tool's parameters. */
function expectValidCall(choice: ChatChoice, allowed: string[]): { name: string; args: unknown } {
  expect(choice.finish_reason).toBe('tool_calls');
  expect(choice.message.content).toBeNull();
  expect(choice.message.tool_calls).toHaveLength(1);
  const [call] = choice.message.tool_calls!;
  expect(call).toMatchObject({ id: expect.stringMatching(/^call_[\w-]{8,}$/), type: 'function' });
  expect(allowed).toContain(call.function.name);
  const args: unknown = JSON.parse(call.function.arguments);
  const parameters =
    TOOLS.find((entry) => entry.function.name === call.function.name)!.function.parameters ?? NO_ARGUMENTS;
  const validate = compileClientSchemaHere(parameters);
  expect(validate(args) ? undefined : firstProblem(validate), call.function.arguments).toBeUndefined();
  return { name: call.function.name, args };
}

type Delta = Extract<ChatStreamEvent, { type: 'delta' }>;
const isDelta = (event: ChatStreamEvent): event is Delta => event.type === 'delta';

describe('llamacpp tool calls', () => {
  it('forces a valid call to one of the tools with tool_choice required', async () => {
    const names = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const result = await chat.chat(chatRequest({ tool_choice: 'required', seed }));
      expect(result.choices).toHaveLength(1);
      names.add(expectValidCall(result.choices[0], ['get_weather', 'get_time', 'search']).name);
      expect(result.usage.completion_tokens).toBeGreaterThan(0);
    }
    // The grammar offers every tool, not only the first.
    expect(names.size).toBeGreaterThan(1);
  });

  it('calls the named tool, with Mistral\'s "any" forcing a call too', async () => {
    for (const seed of [1, 2, 3]) {
      const named = await chat.chat(
        chatRequest({ tool_choice: { type: 'function', function: { name: 'search' } }, seed }),
      );
      expect(expectValidCall(named.choices[0], ['search']).args).toMatchObject({
        since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        filters: { recent: expect.any(Boolean) },
      });
    }
    const weather = await chat.chat(
      chatRequest({ tool_choice: { type: 'function', function: { name: 'get_weather' } } }),
    );
    expect(expectValidCall(weather.choices[0], ['get_weather']).args).toMatchObject({
      city: expect.stringMatching(/^(Paris|Oslo)$/),
    });
    const any = await chat.chat(chatRequest({ tool_choice: 'any', seed: 9 }));
    expectValidCall(any.choices[0], ['get_weather', 'get_time', 'search']);
  });

  it('streams a forced call as tool_calls deltas, then finish tool_calls and usage', async () => {
    const request = chatRequest({ tool_choice: 'required', seed: 2 });
    const plain = await chat.chat(request);
    const events = await collect(await chat.chatStream(chatRequest({ tool_choice: 'required', seed: 2 })));
    const deltas = events.filter(isDelta);
    expect(deltas.every((delta) => !delta.content)).toBe(true);
    const [first, ...rest] = deltas;
    expect(first).toMatchObject({
      role: 'assistant',
      tool_calls: [
        {
          index: 0,
          id: expect.stringMatching(/^call_/),
          type: 'function',
          function: { name: plain.choices[0].message.tool_calls![0].function.name },
        },
      ],
    });
    const args = deltas.map((delta) => delta.tool_calls?.[0].function?.arguments ?? '').join('');
    expect(rest.every((delta) => delta.tool_calls?.[0].index === 0 && delta.tool_calls[0].id === undefined)).toBe(true);
    expect(args).toBe(plain.choices[0].message.tool_calls![0].function.arguments);
    expect(events).toContainEqual({ type: 'finish', index: 0, finish_reason: 'tool_calls' });
    expect(events.at(-1)).toEqual({ type: 'usage', usage: plain.usage });
  });

  it('makes n forced calls, each valid', async () => {
    const result = await chat.chat(chatRequest({ tool_choice: 'required', n: 2 }));
    expect(result.choices.map((choice) => choice.index)).toEqual([0, 1]);
    for (const choice of result.choices) expectValidCall(choice, ['get_weather', 'get_time', 'search']);
  });

  it('with auto, answers with content or a valid call, plain and streamed', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const [choice] = (await chat.chat(chatRequest({ seed, max_tokens: 40 }))).choices;
      if (choice.message.tool_calls) expectValidCall(choice, ['get_weather', 'get_time', 'search']);
      else expect(typeof choice.message.content).toBe('string');
      const events = await collect(await chat.chatStream(chatRequest({ seed, max_tokens: 40, tool_choice: 'auto' })));
      const deltas = events.filter(isDelta);
      expect(deltas[0].role).toBe('assistant');
      if (choice.message.tool_calls) {
        expect(deltas.some((delta) => delta.tool_calls)).toBe(true);
      } else {
        expect(deltas.map((delta) => delta.content ?? '').join('')).toBe(choice.message.content);
        expect(events).toContainEqual({ type: 'finish', index: 0, finish_reason: choice.finish_reason });
      }
    }
  });

  it('with auto, returns an output that is a call as a tool call, also when streamed', async () => {
    // A response format shaped like a call makes the random model write one, as a real model would choose to.
    const callShape = {
      type: 'object',
      properties: { name: { const: 'get_time' }, arguments: { type: 'object', properties: {} } },
    };
    const request = (): ChatRequest =>
      chatRequest({
        tool_choice: 'auto',
        response_format: { type: 'json_schema', json_schema: { schema: callShape } },
      });
    const [choice] = (await chat.chat(request())).choices;
    expect(expectValidCall(choice, ['get_time']).args).toEqual({});
    const events = await collect(await chat.chatStream(request()));
    const deltas = events.filter(isDelta);
    expect(deltas.every((delta) => !delta.content)).toBe(true);
    expect(deltas[0].tool_calls?.[0].function?.name).toBe('get_time');
    expect(events).toContainEqual({ type: 'finish', index: 0, finish_reason: 'tool_calls' });
  });

  it('ignores the tools with tool_choice none', async () => {
    const withoutTools = await chat.chat(chatRequest({ tools: undefined, temperature: 0, max_tokens: 16 }));
    const none = await chat.chat(chatRequest({ tool_choice: 'none', temperature: 0, max_tokens: 16 }));
    expect(none.choices[0].message).toEqual(withoutTools.choices[0].message);
    expect(none.usage.prompt_tokens).toBe(withoutTools.usage.prompt_tokens);
  });

  it('accepts a history with assistant tool calls and their results', async () => {
    const messages: ChatRequest['messages'] = [
      { role: 'system', content: 'You help with the weather.' },
      { role: 'user', content: 'Weather in Paris and the time?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temperature":21}' },
      { role: 'tool', tool_call_id: 'call_2', content: '12:30' },
    ];
    const result = await chat.chat(chatRequest({ messages, max_tokens: 12 }));
    expect(result.choices[0].message.role).toBe('assistant');
    expect(['stop', 'length', 'tool_calls']).toContain(result.choices[0].finish_reason);
    expect(result.usage.prompt_tokens).toBeGreaterThan(20);
    const followUp = [
      ...messages,
      { role: 'assistant' as const, content: 'It is 21 degrees.' },
      { role: 'user' as const, content: 'Thanks' },
    ];
    const plain = await chat.chat(chatRequest({ messages: followUp, tools: undefined, max_tokens: 4 }));
    expect(plain.choices[0].finish_reason).toMatch(/^(stop|length)$/);
  });

  it('refuses an unknown tool name in tool_choice and a tool result that answers no call', async () => {
    const unknown = { type: 'function' as const, function: { name: 'launch_rocket' } };
    await expect(chat.chat(chatRequest({ tool_choice: unknown }))).rejects.toMatchObject({
      kind: 'invalid_request',
      param: 'tool_choice',
    });
    await expect(chat.chatStream(chatRequest({ tool_choice: unknown }))).rejects.toMatchObject({
      kind: 'invalid_request',
      param: 'tool_choice',
    });
    await expect(chat.chat(chatRequest({ tools: undefined, tool_choice: 'required' }))).rejects.toMatchObject({
      param: 'tool_choice',
    });
    const orphan = chatRequest({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'call_x', content: '1' },
      ],
    });
    await expect(chat.chat(orphan)).rejects.toMatchObject({ kind: 'invalid_request', param: 'messages' });
  });
});

describe('tool turns in the chat history', () => {
  it('renders earlier calls in the JSON form the model is asked to write, with their results', async () => {
    const history = toChatHistory(
      [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: 'Let me look.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', name: 'get_weather', content: '{"temperature":-3}' },
      ],
      'TOOLS PROMPT',
    );
    expect(history[0]).toEqual({ type: 'system', text: 'TOOLS PROMPT' });
    expect(history).toHaveLength(3);
    expect(history[2]).toEqual({
      type: 'model',
      response: [
        'Let me look.\n',
        {
          type: 'functionCall',
          name: 'get_weather',
          params: { city: 'Oslo' },
          result: { temperature: -3 },
          rawCall: '{"name":"get_weather","arguments":{"city":"Oslo"}}',
        },
      ],
    });
    const { ChatMLChatWrapper } = await import('node-llama-cpp');
    const text = new ChatMLChatWrapper().generateContextState({ chatHistory: history }).contextText.toString();
    expect(text).toContain('Let me look.\n{"name":"get_weather","arguments":{"city":"Oslo"}}');
    expect(text).toContain('{"temperature": -3}');
    // The results end the history: the model goes on with the same turn.
    expect(text.endsWith('<|im_end|>\n')).toBe(false);
  });
});

describe('tool parameter schemas for the grammar', () => {
  it('rewrites what node-llama-cpp would silently read as null', () => {
    expect(toGrammarJsonSchema({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toEqual({
      oneOf: [{ type: 'string' }, { type: 'null' }],
    });
    expect(toGrammarJsonSchema({})).toEqual(ANY_JSON_VALUE);
    expect(toGrammarJsonSchema({ properties: { a: { type: 'integer', minimum: 1 } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'integer' } },
      additionalProperties: false,
    });
    expect(toGrammarJsonSchema({ type: 'object' })).toEqual({ type: 'object', additionalProperties: true });
    expect(toGrammarJsonSchema({ type: ['string', 'null'] })).toEqual({ type: ['string', 'null'] });
    expect(
      toGrammarJsonSchema({
        type: 'object',
        properties: { p: { $ref: '#/definitions/P' } },
        definitions: { P: { type: 'boolean' } },
      }),
    ).toEqual({
      type: 'object',
      properties: { p: { $ref: '#/$defs/P' } },
      additionalProperties: false,
      $defs: { P: { type: 'boolean' } },
    });
  });

  it('gives up on what it cannot express, so the call falls back to any object', () => {
    expect(toGrammarJsonSchema({ allOf: [{ type: 'string' }, { minLength: 2 }] })).toBeUndefined();
    expect(
      toGrammarJsonSchema({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }),
    ).toBeUndefined();
    expect(toGrammarJsonSchema({ enum: [{ a: 1 }] })).toBeUndefined();
  });
});
