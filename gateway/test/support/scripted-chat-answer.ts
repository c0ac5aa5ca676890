/**
 * A fake-upstream behaviour (`upstream.setBehaviour(...)`) that answers the next chat completion with
 * `content` and the given usage, for tests of features that ask a chat model (schema filling,
 * annotations, document answers).
 */
export function scriptedChatAnswer(
  content: string,
  { usage = { prompt_tokens: 40, completion_tokens: 9 }, path = '/v1/chat/completions' } = {},
) {
  return {
    failure: {
      type: 'status' as const,
      status: 200,
      body: {
        id: 'chatcmpl-x',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      },
    },
    times: 1,
    path,
  };
}
