import { ProviderError } from '../_shared/provider-error.js';
import type { ChatRequest } from '../contracts/chat.js';
import type { ToolDefinition } from '../../wire/tool-schemas.js';

/**
 * How a request may use its tools: `none` (not offered), `auto` (the model decides) or `forced`
 * (the output must be a call to one of `tools`, the named tool when tool_choice names one).
 */
export type ToolMode =
  { kind: 'none' } | { kind: 'auto' | 'forced'; tools: ToolDefinition[]; names: ReadonlySet<string> };

const modeOver = (kind: 'auto' | 'forced', tools: ToolDefinition[]): ToolMode => ({
  kind,
  tools,
  names: new Set(tools.map((tool) => tool.function.name)),
});

export function resolveToolMode({
  tools = [],
  tool_choice: choice = 'auto',
}: Pick<ChatRequest, 'tools' | 'tool_choice'>): ToolMode {
  if (choice === 'none') return { kind: 'none' };
  if (tools.length === 0) {
    if (choice === 'auto') return { kind: 'none' };
    throw new ProviderError(
      'invalid_request',
      'tool_choice asks for a tool call, but the request has no tools; add them to `tools`.',
      { param: 'tool_choice' },
    );
  }
  if (choice === 'auto') return modeOver('auto', tools);
  if (choice === 'required' || choice === 'any') return modeOver('forced', tools);
  const named = tools.filter((tool) => tool.function.name === choice.function.name);
  if (named.length === 0) {
    const known = tools.map((tool) => tool.function.name).join(', ');
    throw new ProviderError(
      'invalid_request',
      `tool_choice names the function "${choice.function.name}", which is not in tools (${known}).`,
      {
        param: 'tool_choice',
        code: 'invalid_value',
      },
    );
  }
  return modeOver('forced', named.slice(0, 1));
}
