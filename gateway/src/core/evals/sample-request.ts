import type { CompletionsRunDataSource, EvalRow, EvalSample } from '../../wire/eval-schemas.js';
import type { BatchExecution } from '../batch/batch-executor.js';
import { GatewayError } from '../errors/gateway-error.js';
import { fillTemplate, lookUp } from './fill-template.js';
import { answerText, callError, callUsage } from './grade-row.js';

/** The chat request of one row of a `completions` run, and how its answer becomes the row's sample. */
export interface SampleRequest {
  body: Record<string, unknown>;
  sample(answer: BatchExecution): EvalSample;
}

type ChatMessage = { role: string; content: string };

/** The row's prompt: the template filled from the row, or the message list its `item_reference` names. */
export function promptMessages(source: CompletionsRunDataSource, row: EvalRow): ChatMessage[] {
  const messages = source.input_messages;
  if (messages.type === 'template')
    return messages.template.map((message, index) => ({
      role: message.role,
      content: fillTemplate(
        typeof message.content === 'string' ? message.content : message.content.text,
        { item: row.item },
        `data_source.input_messages.template[${index}].content`,
      ),
    }));
  const found = lookUp(messages.item_reference, { item: row.item });
  const param = 'data_source.input_messages.item_reference';
  if (found === 'missing')
    throw new GatewayError(422, 'template_field_missing', `The row has no ${messages.item_reference}.`, { param });
  const list = found.value;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    !list.every(
      (message: unknown) =>
        message !== null &&
        typeof message === 'object' &&
        typeof (message as ChatMessage).role === 'string' &&
        typeof (message as ChatMessage).content === 'string',
    )
  )
    throw new GatewayError(
      422,
      'invalid_item_reference',
      `${messages.item_reference} must be a non-empty list of {role, content} messages with text content.`,
      { param },
    );
  return (list as ChatMessage[]).map(({ role, content }) => ({ role, content }));
}

/** The chat request of a row (the run's model and sampling params) and its sample. */
export function sampleRequest(source: CompletionsRunDataSource, row: EvalRow): SampleRequest {
  const input = promptMessages(source, row);
  const params = source.sampling_params ?? {};
  const { reasoning_effort: reasoningEffort, ...chatParams } = params;
  const body = {
    model: source.model,
    messages: input,
    ...chatParams,
    ...(reasoningEffort == null ? {} : { reasoning_effort: reasoningEffort }),
  };
  return {
    body,
    sample(answer) {
      const failed = answer.status >= 400;
      const calls = failed ? undefined : callUsage(source.model, answer);
      const choice = failed
        ? undefined
        : (answer.body as { choices?: { finish_reason?: string | null }[] }).choices?.[0];
      return {
        model: source.model,
        input,
        output: failed ? [] : [{ role: 'assistant', content: answerText(answer.body) }],
        finish_reason: choice?.finish_reason ?? '',
        usage: {
          prompt_tokens: calls?.prompt_tokens ?? 0,
          completion_tokens: calls?.completion_tokens ?? 0,
          total_tokens: (calls?.prompt_tokens ?? 0) + (calls?.completion_tokens ?? 0),
          cached_tokens: calls?.cached_tokens ?? 0,
        },
        error: failed ? callError(answer) : null,
        temperature: params.temperature ?? null,
        top_p: params.top_p ?? null,
        seed: params.seed ?? null,
        max_completion_tokens: params.max_completion_tokens ?? null,
      };
    },
  };
}
