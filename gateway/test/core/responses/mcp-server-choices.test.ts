import { describe, expect, it } from 'vitest';
import { mcpServerChoices } from '../../../src/core/responses/mcp-responses.js';
import type { McpTool } from '../../../src/wire/mcp-server-schemas.js';

const tool = (name: string, readOnly: boolean): McpTool => ({
  name,
  description: '',
  input_schema: { type: 'object' },
  read_only: readOnly,
  require_approval: readOnly ? 'never' : 'always',
});
const read = tool('read', true);
const write = tool('write', false);

describe('mcpServerChoices (the Responses mcp tool as the loop offers it)', () => {
  it('follows the server rule by default: calls of tools not annotated read-only wait for approval', () => {
    const [choice] = mcpServerChoices([{ type: 'mcp', server_label: 'files' }]);
    expect([read, write].map((candidate) => choice!.needsApproval(candidate))).toEqual([false, true]);
    expect([read, write].map((candidate) => choice!.allows(candidate))).toEqual([true, true]);
  });

  it('takes require_approval as always, never, or filters, and allowed_tools as names or a filter', () => {
    const [always, never, filtered] = mcpServerChoices([
      { type: 'mcp', server_label: 'a', require_approval: 'always', allowed_tools: ['write'] },
      { type: 'mcp', server_label: 'b', require_approval: 'never', allowed_tools: { read_only: true } },
      {
        type: 'mcp',
        server_label: 'c',
        require_approval: { never: { tool_names: ['write'] }, always: { read_only: true } },
      },
    ]);
    expect([always!.needsApproval(read), never!.needsApproval(write)]).toEqual([true, false]);
    expect([always!.allows(read), always!.allows(write), never!.allows(read), never!.allows(write)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect([filtered!.needsApproval(read), filtered!.needsApproval(write)]).toEqual([true, false]);
  });

  it('refuses what it cannot run, naming the field', () => {
    expect(() => mcpServerChoices([{ type: 'mcp' }])).toThrow(
      expect.objectContaining({ param: 'tools[0].server_label' }),
    );
    expect(() =>
      mcpServerChoices([
        { type: 'mcp', server_label: 'x' },
        { type: 'mcp', server_label: 'x' },
      ]),
    ).toThrow(expect.objectContaining({ status: 422, param: 'tools[1].server_label' }));
    expect(() => mcpServerChoices([{ type: 'mcp', server_label: 'x', connector_id: 'connector_gmail' }])).toThrow(
      expect.objectContaining({ param: 'tools[0].connector_id' }),
    );
  });
});
