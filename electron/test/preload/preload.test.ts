import { readFile } from 'node:fs/promises';
import { createContext, Script } from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS } from '../../main/ipc/ipc-contract.js';

const preloadPath = new URL('../../preload/preload.cts', import.meta.url);

/**
 * Compiles the preload the way the build does and runs it the way a sandboxed renderer does:
 * source wrapped in a function that gets a `require` which knows only `electron`.
 */
async function runPreloadInSandbox() {
  const source = await readFile(preloadPath, 'utf8');
  const compiled = ts.transpileModule(source, {
    fileName: 'preload.cts',
    compilerOptions: { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  }).outputText;

  const required: string[] = [];
  const exposed = new Map<string, unknown>();
  const invoked: unknown[][] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => {
        invoked.push([channel, ...args]);
        return `answer:${channel}`;
      },
    },
  };
  const sandboxRequire = (name: string): unknown => {
    required.push(name);
    if (name === 'electron') return electron;
    throw new Error(`a sandboxed preload cannot require ${name}`);
  };
  const wrapper = new Script(
    `(function (require, process, Buffer, global, setImmediate, clearImmediate, exports, module) {\n${compiled}\n})`,
  );
  const run = wrapper.runInContext(createContext({})) as (...args: unknown[]) => void;
  const module = { exports: {} };
  run(sandboxRequire, {}, undefined, {}, undefined, undefined, module.exports, module);
  return { compiled, required, exposed, invoked };
}

describe('preload', () => {
  it('is plain CommonJS that requires nothing but electron', async () => {
    const { compiled, required } = await runPreloadInSandbox();
    expect(compiled).not.toMatch(/^\s*(import|export)\s/m);
    expect(required).toEqual(['electron']);
  });

  it('exposes exactly the named bridge functions as window.switchyard, never ipcRenderer itself', async () => {
    const { exposed } = await runPreloadInSandbox();
    expect([...exposed.keys()]).toEqual(['switchyard']);
    const bridge = exposed.get('switchyard') as Record<string, unknown>;
    expect(Object.keys(bridge).sort()).toEqual(['getApiKey', 'getGatewayUrl', 'pickModelFile']);
    for (const value of Object.values(bridge)) expect(typeof value).toBe('function');
  });

  it('maps each function to its channel of the contract', async () => {
    const { exposed, invoked } = await runPreloadInSandbox();
    const bridge = exposed.get('switchyard') as Record<string, (...args: unknown[]) => Promise<unknown>>;
    expect(await bridge.getApiKey()).toBe('answer:switchyard:get-api-key');
    expect(await bridge.getGatewayUrl()).toBe('answer:switchyard:get-gateway-url');
    expect(await bridge.pickModelFile()).toBe('answer:switchyard:pick-model-file');
    expect(invoked).toEqual([
      ['switchyard:get-api-key'],
      ['switchyard:get-gateway-url'],
      ['switchyard:pick-model-file'],
    ]);
    expect(new Set(invoked.map(([channel]) => channel))).toEqual(new Set(IPC_CHANNELS));
  });
});
