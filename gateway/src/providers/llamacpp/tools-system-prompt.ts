import type { ToolDefinition } from '../../wire/tool-schemas.js';
import type { ToolMode } from './tool-mode.js';
import { toolCallJson } from './tool-call-json.js';

function describeTool({ function: tool }: ToolDefinition): string {
  const lines = [`- ${tool.name}${tool.description ? `: ${tool.description}` : ''}`];
  lines.push(`  Arguments (JSON schema): ${JSON.stringify(tool.parameters ?? { type: 'object', properties: {} })}`);
  return lines.join('\n');
}

/** Tells the model which tools exist and the one JSON form a call takes. */
export function toolsSystemPrompt(mode: Exclude<ToolMode, { kind: 'none' }>): string {
  const example = toolCallJson('<tool name>', { '<argument>': '<value>' });
  const howToCall =
    mode.kind === 'forced'
      ? `Answer with exactly one JSON object that calls one of these tools, and nothing else: ${example}`
      : `To call a tool, answer with exactly one JSON object and nothing else: ${example}\nOtherwise, answer normally.`;
  return ['You can call these tools:', ...mode.tools.map(describeTool), howToCall].join('\n');
}
