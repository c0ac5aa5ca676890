/** One MCP content block as a server sends it (text, image, audio, resource, resource_link). */
export type ContentBlock = Record<string, unknown>;

export interface CappedResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  truncated: boolean;
}

function size(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

/**
 * Keeps a tool result within `maxChars` (a text block counts its text, any other block and the
 * structured content their JSON): what passes the limit is cut, and a last text block tells the
 * model the result is incomplete and why, so it does not take a part for the whole.
 */
export function capToolResult(
  result: { content: ContentBlock[]; structuredContent?: Record<string, unknown> },
  maxChars: number,
  serverId: string,
): CappedResult {
  let left = maxChars;
  let total = 0;
  const content: ContentBlock[] = [];
  for (const block of result.content) {
    const text = block.type === 'text' && typeof block.text === 'string' ? block.text : undefined;
    const length = text === undefined ? size(block) : text.length;
    total += length;
    if (length <= left) {
      content.push(block);
      left -= length;
    } else if (text !== undefined && left > 0) {
      content.push({ ...block, text: text.slice(0, left) });
      left = 0;
    } else left = 0;
  }
  let structuredContent = result.structuredContent;
  if (structuredContent !== undefined) {
    const length = size(structuredContent);
    total += length;
    if (length > left) structuredContent = undefined;
  }
  const truncated = total > maxChars;
  if (truncated) {
    content.push({
      type: 'text',
      text: `[The result was cut: it had ${total} characters and the gateway passes on at most ${maxChars} for the MCP server "${serverId}" (its max_output_chars).]`,
    });
  }
  return { content, ...(structuredContent !== undefined ? { structuredContent } : {}), truncated };
}
