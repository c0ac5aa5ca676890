import { isObject, openAiError, tokensOf, type FakeReply, type JsonObject } from './fake-upstream-replies.js';

/**
 * OpenAI's Responses API as an upstream that speaks it natively answers: `POST /v1/responses`,
 * a response object, or with `stream: true` the typed event stream (`event:` + `data:` lines, no
 * `[DONE]`). Like chat, the answer echoes the last user text word by word; a function tool named
 * in that text is called instead, with arguments `{"input": <text>}`.
 */

let counter = 0;
const nextId = (prefix: string): string => `${prefix}native${(++counter).toString(36).padStart(6, '0')}`;

function lastUserText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  const user = input
    .filter(isObject)
    .filter((item) => item.role === 'user')
    .at(-1);
  if (!user) return '';
  if (typeof user.content === 'string') return user.content;
  return Array.isArray(user.content)
    ? user.content
        .filter(isObject)
        .map((part) => (typeof part.text === 'string' ? part.text : ''))
        .join(' ')
    : '';
}

export function responsesReply(body: JsonObject): FakeReply {
  if (typeof body.model !== 'string') return openAiError(400, 'Missing required parameter: model.', 'model');
  const text = lastUserText(body.input) || 'Hello from the fake upstream.';
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  const tool = tools.find((candidate) => typeof candidate.name === 'string' && text.includes(candidate.name));
  const words = tokensOf(text);
  const inputTokens = tokensOf(JSON.stringify(body.input ?? '')).length;
  const outputTokens = tool ? 1 : words.length;
  const item = tool
    ? {
        id: nextId('fc_'),
        type: 'function_call',
        status: 'completed',
        call_id: nextId('call_'),
        name: tool.name,
        arguments: JSON.stringify({ input: text }),
      }
    : {
        id: nextId('msg_'),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
      };
  const base = {
    id: nextId('resp_'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model,
    parallel_tool_calls: true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: body.store !== false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools,
    top_p: 1,
    truncation: 'disabled',
    user: null,
    metadata: {},
  };
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  };
  const completed = {
    ...base,
    status: 'completed',
    completed_at: Math.floor(Date.now() / 1000),
    output: [item],
    usage,
  };
  if (body.stream !== true) return { kind: 'json', status: 200, body: completed };

  const inProgress = { ...base, status: 'in_progress', output: [], usage: null };
  const events: ({ type: string } & JsonObject)[] = [
    { type: 'response.created', response: inProgress },
    { type: 'response.in_progress', response: inProgress },
  ];
  if (item.type === 'function_call') {
    events.push({
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...item, status: 'in_progress', arguments: '' },
    });
    events.push({
      type: 'response.function_call_arguments.delta',
      item_id: item.id,
      output_index: 0,
      delta: item.arguments,
    });
    events.push({
      type: 'response.function_call_arguments.done',
      item_id: item.id,
      output_index: 0,
      name: item.name,
      arguments: item.arguments,
    });
  } else {
    const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
    events.push({
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...item, status: 'in_progress', content: [] },
    });
    events.push({ type: 'response.content_part.added', item_id: item.id, output_index: 0, content_index: 0, part });
    for (const word of words)
      events.push({
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        delta: word,
        logprobs: [],
      });
    events.push({
      type: 'response.output_text.done',
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      text,
      logprobs: [],
    });
    events.push({
      type: 'response.content_part.done',
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      part: { ...part, text },
    });
  }
  events.push({ type: 'response.output_item.done', output_index: 0, item });
  events.push({ type: 'response.completed', response: completed });
  return { kind: 'events', frames: events.map((event, sequence) => ({ ...event, sequence_number: sequence })) };
}
