// An MCP stdio server on the official SDK for the cases no published server shows: a tool whose
// definition is broken, a tool list that changes, a result of a chosen size. Run with `node` (types stripped).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const objectSchema = { type: 'object', properties: {} };
const tools: Record<string, unknown>[] = [
  { name: 'ok', description: 'Answers ok', inputSchema: objectSchema, annotations: { readOnlyHint: true } },
  { name: 'broken', description: 'Its schema is not an object schema', inputSchema: { type: 'string' } },
  { name: 'grow', description: 'Adds the tool "grown" and says the list changed', inputSchema: objectSchema },
  {
    name: 'big',
    description: 'Answers `chars` characters',
    inputSchema: { type: 'object', properties: { chars: { type: 'integer' } } },
  },
];

const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }) as never);
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params;
  if (name === 'grow') {
    tools.push({ name: 'grown', description: 'Added by grow', inputSchema: objectSchema });
    await server.sendToolListChanged();
    return { content: [{ type: 'text', text: 'grown' }] };
  }
  if (name === 'big') return { content: [{ type: 'text', text: 'x'.repeat(Number(args.chars)) }] };
  return { content: [{ type: 'text', text: 'ok' }] };
});
await server.connect(new StdioServerTransport());
