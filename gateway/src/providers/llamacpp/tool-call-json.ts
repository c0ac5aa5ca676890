import { randomBytes } from 'node:crypto';
import type { ToolCall } from '../../wire/chat-message-schemas.js';

/**
 * The one JSON form a tool call takes in the model's own text: what the system prompt asks for,
 * what the forced-call grammar produces and how earlier calls appear in the history.
 */
export function toolCallJson(name: string, args: unknown): string {
  return JSON.stringify({ name, arguments: args });
}

export function newToolCall(name: string, args: string): ToolCall {
  return { id: `call_${randomBytes(12).toString('base64url')}`, type: 'function', function: { name, arguments: args } };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a complete output as a call to one of `toolNames`, or undefined when it is anything else.
 * `parameters` is accepted for `arguments`, as several model families write it.
 */
export function parseToolCallJson(
  text: string,
  toolNames: ReadonlySet<string>,
): { name: string; arguments: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || typeof parsed.name !== 'string' || !toolNames.has(parsed.name)) return undefined;
  const args = parsed.arguments ?? parsed.parameters ?? {};
  if (!isObject(args)) return undefined;
  return { name: parsed.name, arguments: JSON.stringify(args) };
}

/**
 * Reads a call cut short by max_tokens: the grammar writes the name first, so it is known, and the
 * arguments are what was written of them (as OpenAI returns a truncated call).
 */
export function parseTruncatedToolCallJson(
  text: string,
  toolNames: ReadonlySet<string>,
): { name: string; arguments: string } | undefined {
  const match = /^\s*\{\s*"name"\s*:\s*"([^"\\]*)"\s*(?:,\s*"arguments"\s*:\s*)?/.exec(text);
  if (!match || !toolNames.has(match[1])) return undefined;
  return { name: match[1], arguments: text.slice(match[0].length).trim() };
}
