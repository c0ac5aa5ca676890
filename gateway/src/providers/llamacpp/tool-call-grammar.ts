import type { GbnfJsonSchema, Llama, LlamaGrammar } from 'node-llama-cpp';
import type { ToolDefinition } from '../../wire/tool-schemas.js';
import { toGrammarJsonSchema } from './to-grammar-json-schema.js';

const ANY_OBJECT: GbnfJsonSchema = { type: 'object', additionalProperties: true };
const NO_ARGUMENTS: GbnfJsonSchema = { type: 'object', properties: {} };

/** A tool without parameters takes `{}`; one whose schema the grammar cannot express takes any object. */
function argumentsSchema(tool: ToolDefinition): GbnfJsonSchema {
  if (tool.function.parameters === undefined) return NO_ARGUMENTS;
  return toGrammarJsonSchema(tool.function.parameters) ?? ANY_OBJECT;
}

/**
 * A grammar whose every output is `{"name": <tool>, "arguments": <that tool's arguments>}` for one
 * of `tools`: a oneOf with one branch per tool. Should the engine refuse the combination, the name
 * is still restricted to the tools and the arguments to an object.
 */
export async function createToolCallGrammar(llama: Llama, tools: ToolDefinition[]): Promise<LlamaGrammar> {
  const perTool: GbnfJsonSchema = {
    oneOf: tools.map((tool) => ({
      type: 'object',
      properties: { name: { const: tool.function.name }, arguments: argumentsSchema(tool) },
    })),
  };
  try {
    return await llama.createGrammarForJsonSchema(perTool);
  } catch {
    const names = tools.map((tool) => tool.function.name);
    return llama.createGrammarForJsonSchema({
      type: 'object',
      properties: { name: { enum: names }, arguments: ANY_OBJECT },
    });
  }
}
