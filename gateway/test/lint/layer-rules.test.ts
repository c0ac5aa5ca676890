import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Feeds single imports to the repository's own lint config, each linted as if it were a file in
// the named folder, and checks that the dependency directions of ARCHITECTURE.md hold.
const root = resolve(import.meta.dirname, '../../..');
// The probes are in-memory files outside the TypeScript project, so the type-aware promise rules
// (which need the project) are turned off here; the layer and file-name rules do not use types.
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: join(root, 'eslint.config.js'),
  overrideConfig: {
    languageOptions: { parserOptions: { project: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: join(root, filePath) });
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

const zone = 'import-x/no-restricted-paths';
const restricted = 'no-restricted-imports';

const forbidden: Array<[string, string, string, string]> = [
  [
    'core imports electron',
    'gateway/src/core/routing/probe.ts',
    "export { runDesktopApp } from '../../../../electron/main/run-desktop-app.js';",
    zone,
  ],
  [
    'core imports the electron package',
    'gateway/src/core/routing/probe.ts',
    "export { app } from 'electron';",
    restricted,
  ],
  [
    'store imports electron',
    'gateway/src/store/probe.ts',
    "export { runDesktopApp } from '../../../electron/main/run-desktop-app.js';",
    zone,
  ],
  ['store imports the electron package', 'gateway/src/store/probe.ts', "export { app } from 'electron';", restricted],
  [
    'store imports core',
    'gateway/src/store/probe.ts',
    "export { CircuitBreaker } from '../core/routing/circuit-breaker.js';",
    zone,
  ],
  [
    'gateway imports the renderer',
    'gateway/src/http/probe.ts',
    "export * from '../../../renderer/src/lib/format';",
    zone,
  ],
  [
    'api imports the store',
    'gateway/src/api/health/probe.ts',
    "export { openDatabase } from '../../store/database.js';",
    zone,
  ],
  [
    'api imports a specific provider',
    'gateway/src/api/chat/probe.ts',
    "export { createMistralProvider } from '../../providers/mistral/create-mistral-provider.js';",
    zone,
  ],
  [
    'api imports config',
    'gateway/src/api/health/probe.ts',
    "export { DEFAULT_SERVER } from '../../config/defaults.js';",
    zone,
  ],
  [
    'core imports the api',
    'gateway/src/core/routing/probe.ts',
    "export { registerRoutes } from '../../api/index.js';",
    zone,
  ],
  ['core imports fastify', 'gateway/src/core/routing/probe.ts', "export { fastify } from 'fastify';", restricted],
  [
    'core imports a provider internal',
    'gateway/src/core/ocr/probe.ts',
    "export { mistralDialect } from '../../providers/mistral/mistral-dialect.js';",
    zone,
  ],
  [
    'a provider imports config',
    'gateway/src/providers/mistral/probe.ts',
    "export { DEFAULT_SERVER } from '../../config/defaults.js';",
    zone,
  ],
  [
    'a provider imports core',
    'gateway/src/providers/mistral/probe.ts',
    "export { CircuitBreaker } from '../../core/routing/circuit-breaker.js';",
    zone,
  ],
  [
    'a provider imports the store',
    'gateway/src/providers/tesseract/probe.ts',
    "export { openDatabase } from '../../store/database.js';",
    zone,
  ],
  [
    'a provider imports a sibling provider',
    'gateway/src/providers/mistral/probe.ts',
    "export { createOpenAiCompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.js';",
    zone,
  ],
  [
    'shared provider code imports a provider',
    'gateway/src/providers/_shared/probe.ts',
    "export { mistralDialect } from '../mistral/mistral-dialect.js';",
    zone,
  ],
  [
    'media imports core',
    'gateway/src/media/probe.ts',
    "export { CircuitBreaker } from '../core/routing/circuit-breaker.js';",
    zone,
  ],
  [
    'media imports a provider error',
    'gateway/src/media/probe.ts',
    "export { ProviderError } from '../providers/_shared/provider-error.js';",
    zone,
  ],
  [
    'wire imports a provider contract',
    'gateway/src/wire/probe.ts',
    "export { CAPABILITIES } from '../providers/contracts/capability.js';",
    zone,
  ],
  [
    'ocr-layout imports media',
    'gateway/src/ocr-layout/probe.ts',
    "export { MediaDecoder } from '../media/media-decoder.js';",
    zone,
  ],
  [
    'the renderer imports gateway code at run time',
    'renderer/src/lib/probe.ts',
    "export { CircuitBreaker } from '../../../gateway/src/core/routing/circuit-breaker.js';",
    restricted,
  ],
  [
    'the renderer imports electron',
    'renderer/src/lib/probe.ts',
    "export { runDesktopApp } from '../../../electron/main/run-desktop-app';",
    zone,
  ],
  [
    'a renderer feature imports another feature',
    'renderer/src/features/chat/components/probe.ts',
    "export { useKeys } from '../../keys/api/list-keys';",
    zone,
  ],
  [
    'shared renderer components import a feature',
    'renderer/src/components/probe.ts',
    "export { useKeys } from '../features/keys/api/list-keys';",
    zone,
  ],
];

describe('layer rules', () => {
  it.each(forbidden)('fails when %s', async (_name, filePath, code, rule) => {
    const found = await problems(filePath, code);
    expect(
      found.some((problem) => problem.startsWith(`${rule}:`)),
      found.join('\n'),
    ).toBe(true);
  });

  const allowed: Array<[string, string, string]> = [
    [
      'api imports core',
      'gateway/src/api/health/probe.ts',
      "export { CircuitBreaker } from '../../core/routing/circuit-breaker.js';",
    ],
    [
      'api imports provider contracts',
      'gateway/src/api/chat/probe.ts',
      "export type { ProviderInstance } from '../../providers/contracts/provider-instance.js';",
    ],
    [
      'core imports the provider registry',
      'gateway/src/core/routing/probe.ts',
      "export * from '../../providers/index.js';",
    ],
    [
      'a provider imports shared provider code and streaming',
      'gateway/src/providers/mistral/probe.ts',
      "export { UpstreamClient } from '../_shared/http/upstream-client.js';\nexport * from '../../streaming/sse-writer.js';",
    ],
    [
      'the renderer imports a gateway type',
      'renderer/src/lib/probe.ts',
      "export type { CircuitBreaker } from '../../../gateway/src/core/routing/circuit-breaker.js';",
    ],
    [
      'a feature imports shared components',
      'renderer/src/features/chat/components/probe.ts',
      "export { ModelGate } from '../../../components/model-gate';",
    ],
  ];
  it.each(allowed)('passes when %s', async (_name, filePath, code) => {
    expect(await problems(filePath, code)).toEqual([]);
  });
});

describe('cycles and file names', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(root, 'gateway/test/lint/cycle-probe-'));
    writeFileSync(join(dir, 'first.ts'), "import { second } from './second.js';\nexport const first = () => second;\n");
    writeFileSync(join(dir, 'second.ts'), "import { first } from './first.js';\nexport const second = () => first;\n");
    writeFileSync(
      join(dir, 'type-first.ts'),
      "import { second } from './type-second.js';\nexport type First = typeof second;\n",
    );
    writeFileSync(
      join(dir, 'type-second.ts'),
      "import type { First } from './type-first.js';\nexport const second = (first: First) => first;\n",
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails an import cycle', async () => {
    const relativeDir = dir.slice(root.length + 1);
    const found = await problems(
      `${relativeDir}/first.ts`,
      "import { second } from './second.js';\nexport const first = () => second;",
    );
    expect(
      found.some((problem) => problem.startsWith('import-x/no-cycle:')),
      found.join('\n'),
    ).toBe(true);
  });

  it('fails an import cycle through a type-only import', async () => {
    const relativeDir = dir.slice(root.length + 1);
    const found = await problems(
      `${relativeDir}/type-second.ts`,
      "import type { First } from './type-first.js';\nexport const second = (first: First) => first;",
    );
    expect(
      found.some((problem) => problem.startsWith('switchyard/no-type-import-cycle:')),
      found.join('\n'),
    ).toBe(true);
  });

  it('fails a file name that is not kebab-case', async () => {
    const found = await problems('gateway/src/core/routing/RouteTable.ts', 'export const table = 1;');
    expect(
      found.some((problem) => problem.startsWith('check-file/filename-naming-convention:')),
      found.join('\n'),
    ).toBe(true);
  });

  it('passes a kebab-case file name with a middle extension', async () => {
    expect(await problems('gateway/src/core/routing/route-table.test.ts', 'export const table = 1;')).toEqual([]);
  });
});
