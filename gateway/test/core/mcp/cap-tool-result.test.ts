import { describe, expect, it } from 'vitest';
import { capToolResult } from '../../../src/core/mcp/cap-tool-result.js';

describe('capToolResult', () => {
  it('passes a result within the limit unchanged', () => {
    const content = [{ type: 'text', text: 'short' }];
    expect(capToolResult({ content, structuredContent: { a: 1 } }, 100, 's')).toEqual({
      content,
      structuredContent: { a: 1 },
      truncated: false,
    });
  });

  it('cuts text at the limit, drops blocks past it, and adds a note for the model', () => {
    const image = { type: 'image', data: 'A'.repeat(500), mimeType: 'image/png' };
    const result = capToolResult(
      { content: [{ type: 'text', text: 'a'.repeat(80) }, { type: 'text', text: 'b'.repeat(80) }, image] },
      100,
      'files',
    );
    expect(result.truncated).toBe(true);
    expect(result.content.slice(0, 2)).toEqual([
      { type: 'text', text: 'a'.repeat(80) },
      { type: 'text', text: 'b'.repeat(20) },
    ]);
    expect(result.content).toHaveLength(3);
    expect(result.content[2].text).toMatch(/cut: it had \d+ characters .* at most 100 .*"files"/);
  });

  it('drops structured content that does not fit', () => {
    const result = capToolResult({ content: [], structuredContent: { rows: 'r'.repeat(200) } }, 100, 's');
    expect(result.structuredContent).toBeUndefined();
    expect(result.truncated).toBe(true);
  });
});
