import type { Capability } from '../../lib/gateway-types';
import type { RequestLogEntry } from '../../../../gateway/src/wire/request-log-entry-schema';
import type { ReplayAnswer } from '../../../../gateway/src/wire/replay-answer-schema';

/** The capability a model needs to answer a request sent to `path` again; null where no replay applies. */
export function capabilityFor(path: string): Capability | null {
  if (path.endsWith('/chat/completions') || path === '/v1/responses') return 'chat';
  if (path === '/v1/completions' || path === '/v1/fim/completions') return 'completions';
  if (path === '/v1/embeddings') return 'embeddings';
  if (path === '/v1/ocr') return 'ocr';
  if (path === '/v1/vision/analyze') return 'vision';
  if (path === '/v1/vision/generate' || path === '/v1/images/generations') return 'image_generation';
  return null;
}

/** How the request log marks a body it kept only the beginning of. */
const CUT_BODY = /… \[cut from \d+ characters\]$/;

/**
 * Why the request cannot be replayed, in words for the drawer, or null when it can (the gateway
 * decides in the end: this only spares a click that would be refused).
 */
export function replayRefusal(entry: RequestLogEntry): string | null {
  if (/^multipart\//i.test(entry.request_headers?.['content-type'] ?? ''))
    return 'This request uploaded a file, which the log does not keep: it cannot be sent again.';
  if (entry.method !== 'POST' || capabilityFor(entry.path) === null)
    return 'Only requests to the JSON endpoints that compute an answer (chat, completions, embeddings, OCR, …) can be sent again.';
  if (entry.request_body === undefined)
    return 'The log did not keep this request’s body, so it cannot be sent again. An Owner can turn on request-log bodies in Settings for the requests that follow.';
  if (CUT_BODY.test(entry.request_body))
    return 'The log kept only the beginning of this request’s body (4 KiB), so it cannot be sent again.';
  return null;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A message's content as text: a string, or the text of its parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function toolCallsText(calls: unknown): string {
  if (!Array.isArray(calls)) return '';
  return calls
    .map((call) =>
      isObject(call) && isObject(call.function)
        ? `→ ${String(call.function.name)}(${String(call.function.arguments ?? '')})`
        : '',
    )
    .filter(Boolean)
    .join('\n');
}

/** What the model answered, as plain text to read side by side: never markup, whatever the answer holds. */
export function answerText(answer: ReplayAnswer): string {
  const body = answer.body;
  const failure = answer.error
    ? `\n\nThe stream failed after it started: ${answer.error.code}: ${answer.error.message}`
    : '';
  if (!isObject(body)) return (typeof body === 'string' ? body : JSON.stringify(body, null, 2)) + failure;
  if (answer.status >= 400 || body.object === 'error') {
    const error = isObject(body.error) ? body.error : body;
    return `${String(error.code ?? 'error')}: ${String(error.message ?? '')}`;
  }
  if (Array.isArray(body.choices) && body.choices.length > 0) {
    const texts = body.choices.map((choice) => {
      if (!isObject(choice)) return '';
      if (typeof choice.text === 'string') return choice.text;
      const message = isObject(choice.message) ? choice.message : {};
      return [contentText(message.content), toolCallsText(message.tool_calls)].filter(Boolean).join('\n');
    });
    return texts.join('\n\n———\n\n') + failure;
  }
  if (typeof body.output_text === 'string') return body.output_text + failure;
  if (Array.isArray(body.output)) {
    const text = body.output
      .flatMap((item) => (isObject(item) && Array.isArray(item.content) ? item.content : []))
      .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
      .join('');
    if (text) return text + failure;
  }
  if (
    body.object === 'list' &&
    Array.isArray(body.data) &&
    body.data.every((item) => isObject(item) && 'embedding' in item)
  ) {
    const first = body.data[0] as Json | undefined;
    const dimensions = Array.isArray(first?.embedding) ? `${first.embedding.length} dimensions` : 'base64';
    return `${body.data.length} embedding${body.data.length === 1 ? '' : 's'} (${dimensions})`;
  }
  if (Array.isArray(body.pages))
    return body.pages
      .map((page) => (isObject(page) && typeof page.markdown === 'string' ? page.markdown : ''))
      .join('\n\n');
  return JSON.stringify(body, null, 2) + failure;
}
