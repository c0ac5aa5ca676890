import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Routes receive only the use-case services they call (api/index.ts): real files placed in
// gateway/src/api/ that reach a repository, the usage ledger, a provider or the composition are
// refused by the repository's own lint config, and one that imports a core service passes.
const root = resolve(import.meta.dirname, '../../..');
// The probes are not in the TypeScript project the type-aware rules read, so those rules are off here.
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: join(root, 'eslint.config.js'),
  overrideConfig: {
    languageOptions: { parserOptions: { project: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

const ZONE = 'import-x/no-restricted-paths';

const refused: Array<[string, string, string]> = [
  ['a repository', 'imports-repository.ts', "export { BatchesRepository } from '../../store/batches-repository.js';"],
  ['the usage ledger', 'imports-ledger.ts', "export { UsageLedger } from '../../core/billing/usage-ledger.js';"],
  [
    'a provider',
    'imports-provider.ts',
    "export { createMistralProvider } from '../../providers/mistral/create-mistral-provider.js';",
  ],
  [
    'the composition',
    'imports-composition.ts',
    "export { composeGateway } from '../../core/lifecycle/compose-gateway.js';",
  ],
];
const allowed = "export { BatchService } from '../../core/batch/batch-service.js';";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(root, 'gateway/src/api/seam-probe-'));
  for (const [, file, code] of refused) writeFileSync(join(dir, file), `${code}\n`);
  writeFileSync(join(dir, 'imports-service.ts'), `${allowed}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function problems(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([join(dir, file)]);
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe('api seams', () => {
  it.each(refused)('refuses an api file that imports %s', async (_what, file) => {
    const found = await problems(file);
    expect(
      found.some((problem) => problem.startsWith(`${ZONE}:`)),
      found.join('\n'),
    ).toBe(true);
  });

  it('passes an api file that imports a core use-case service', async () => {
    expect(await problems('imports-service.ts')).toEqual([]);
  });
});
