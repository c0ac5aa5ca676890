import type { RequestLogEntry } from '../../../../gateway/src/wire/request-log-entry-schema';
import type { EvalRow } from './eval-types';

/** A logged request as a dataset row, or why it cannot be one. */
export type LoggedRow = { row: EvalRow; note?: string } | { problem: string };

type WireContent = string | { type?: string; text?: string }[] | null | undefined;

const textOf = (content: WireContent): string =>
  typeof content === 'string'
    ? content
    : (content ?? [])
        .filter((part) => part.type === 'text')
        .map((part) => part.text ?? '')
        .join('\n');

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export const BODIES_OFF =
  'No body was kept: the gateway logs request and response bodies only while the server setting request_log_bodies is on (Settings → Server).';

/**
 * A logged chat completion as an eval item: `input` is its last user message, `system` its system
 * prompt when it had one, `expected` the answer it got (left out when the answer was streamed or
 * not kept, with a note saying so).
 */
export function rowFromLoggedRequest(entry: RequestLogEntry): LoggedRow {
  if (!entry.path.endsWith('/chat/completions')) return { problem: 'Only chat completions can become eval items.' };
  if (entry.request_body === undefined) return { problem: BODIES_OFF };
  const body = parse(entry.request_body) as { messages?: { role?: string; content?: WireContent }[] } | undefined;
  if (!body || !Array.isArray(body.messages))
    return { problem: 'The logged body was cut (the log keeps 4 KB of it) or is not a chat request.' };
  const user = body.messages.filter((m) => m.role === 'user').at(-1);
  const input = user ? textOf(user.content) : '';
  if (!input.trim()) return { problem: 'The request has no user message with text.' };
  const system = body.messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => textOf(m.content))
    .join('\n');
  const item: Record<string, unknown> = { input, ...(system ? { system } : {}) };
  const answer = answerOf(entry);
  if (typeof answer === 'string') return { row: { item: { ...item, expected: answer } } };
  return { row: { item }, note: answer.note };
}

function answerOf(entry: RequestLogEntry): string | { note: string } {
  if (entry.status >= 400) return { note: 'The request failed: no answer to keep as the reference.' };
  if (entry.response_body === undefined) return { note: 'No answer was kept.' };
  if (entry.response_body === '[stream]') return { note: 'The answer was streamed: the log keeps no streamed answer.' };
  const response = parse(entry.response_body) as { choices?: { message?: { content?: WireContent } }[] } | undefined;
  const content = response?.choices?.[0]?.message?.content;
  if (content === undefined) return { note: 'The logged answer was cut (the log keeps 4 KB of it).' };
  return textOf(content);
}

/**
 * The rows of several logged requests, and what was left out or incomplete, per entry id. Every
 * row has the same fields when any has an answer (an empty `expected` where none was kept), so a
 * template naming `{{item.expected}}` fits each row.
 */
export function rowsFromLoggedRequests(entries: readonly RequestLogEntry[]): {
  rows: EvalRow[];
  notes: { id: string; text: string }[];
} {
  const rows: EvalRow[] = [];
  const notes: { id: string; text: string }[] = [];
  for (const entry of entries) {
    const result = rowFromLoggedRequest(entry);
    if ('problem' in result) notes.push({ id: entry.id, text: `Left out: ${result.problem}` });
    else {
      rows.push(result.row);
      if (result.note) notes.push({ id: entry.id, text: result.note });
    }
  }
  if (rows.some((row) => 'expected' in row.item))
    for (const row of rows) if (!('expected' in row.item)) row.item.expected = '';
  return { rows, notes };
}
