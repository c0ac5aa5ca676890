import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingStdio } from '../../support/mcp-servers.js';
import { json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { writeTinyLlamaGguf } from '../../support/tiny-gguf.js';

/** The real llama.cpp engine with the generated tiny model, and the real server-everything over stdio. */
let gateway: TestGateway;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchyard-llm-mcp-'));
  mkdirSync(join(dataDir, 'models'));
  await writeTinyLlamaGguf(join(dataDir, 'models', 'tiny-chat.gguf'), { seed: 3 });
  gateway = await startGateway({
    dataDir,
    config: {
      providers: [{ id: 'local-llm', type: 'llamacpp', threads: 1 }],
      mcp_servers: [everythingStdio()],
      server: { tool_loop_max_steps: 2 },
    },
  });
});
afterAll(async () => {
  await gateway.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the MCP tool loop on a local GGUF model', () => {
  it('runs a grammar-forced tool call on the server, then gives the model the result', async () => {
    const response = await gateway.request('/v1/responses', {
      method: 'POST',
      json: {
        model: 'tiny-chat',
        input: 'What is my environment?',
        tools: [{ type: 'mcp', server_label: 'everything', allowed_tools: ['get-env'], require_approval: 'never' }],
        tool_choice: 'required',
        max_output_tokens: 64,
        temperature: 0,
      },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.output[0]).toMatchObject({ type: 'mcp_list_tools', server_label: 'everything' });
    const call = body.output[1] as Json;
    expect(call).toMatchObject({ type: 'mcp_call', name: 'get-env', status: 'completed', error: null });
    // The grammar forced a call that matches the tool's input schema (no parameters), so the server ran it.
    expect(JSON.parse(call.arguments as string)).toEqual({});
    expect(call.output).toContain('PATH');
    // The second model call (tool_choice back to auto) read the result: it answered or, at the limit, called again.
    expect(body.output.length).toBeGreaterThan(2);
    expect(body.usage.input_tokens).toBeGreaterThan(0);
  });
});
