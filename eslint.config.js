import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import checkFile from 'eslint-plugin-check-file';
import { noTypeImportCycle } from './eslint-rules/no-type-import-cycle.js';

const root = import.meta.dirname;
const subfolders = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const src = 'gateway/src';
const providerFolders = subfolders(`${src}/providers`).filter((name) => name !== '_shared' && name !== 'contracts');
const featureFolders = subfolders('renderer/src/features');

const plainNode = 'The gateway is plain Node: no Electron or renderer imports.';
/** gateway/src paths: `inSrc('api', 'core')`. */
const inSrc = (...names) => names.map((name) => `${src}/${name}`);
/** The layers and entry points that only import downwards: what an adapter or a leaf room never imports. */
const layersAbove = (...also) => inSrc('api', 'core', 'http', 'store', 'config', ...also, 'app.ts', 'cli.ts');

// Dependency directions (DESIGN.md, ARCHITECTURE.md). A zone forbids files under `target` to import
// files under `from` (except the `except` folders, relative to `from`). Every layer rule lives in this
// one list, so no later config block can silently replace an earlier one.
const zones = [
  { target: 'gateway', from: ['electron', 'renderer'], message: plainNode },
  {
    target: `${src}/api`,
    from: `${src}/providers`,
    except: ['./contracts'],
    message: 'The api calls core services; it names no provider (provider types come from providers/contracts).',
  },
  {
    id: 'api-store',
    target: `${src}/api`,
    from: `${src}/store`,
    message: 'The api reaches the database only through core.',
  },
  {
    id: 'api-ledger',
    target: `${src}/api`,
    from: `${src}/core/billing/usage-ledger.ts`,
    message: 'The api never reaches the usage ledger: a core service (billing, the account) reads and writes it.',
  },
  {
    id: 'api-composition',
    target: `${src}/api`,
    from: `${src}/core/lifecycle`,
    message:
      'Routes receive the use-case services they call as plugin options (api/index.ts); they never reach the composition that builds them.',
  },
  {
    id: 'api-config',
    target: [`${src}/api`, `${src}/http`],
    from: `${src}/config`,
    message: 'Options are read by app, cli and core; routes get them from core.',
  },
  {
    target: `${src}/core`,
    from: [`${src}/api`, `${src}/http`],
    message: 'Core holds domain logic with no HTTP in it.',
  },
  {
    target: `${src}/core`,
    from: `${src}/providers`,
    except: ['./index.ts', './contracts', './_shared'],
    message: 'Core reaches providers only through providers/index.ts, providers/contracts and providers/_shared.',
  },
  {
    target: `${src}/providers`,
    from: layersAbove(),
    message:
      'Providers are adapters: they import only providers/_shared, providers/contracts, their own folder, media/, streaming/ and wire/ (options come through ProviderContext).',
  },
  ...providerFolders.map((name) => ({
    target: `${src}/providers/${name}`,
    from: `${src}/providers`,
    except: [`./${name}`, './_shared', './contracts'],
    message: 'A provider never imports a sibling provider: shared code lives in providers/_shared.',
  })),
  {
    target: [`${src}/providers/_shared`, `${src}/providers/contracts`],
    from: `${src}/providers`,
    except: ['./_shared', './contracts'],
    message: 'Shared provider code names no specific provider.',
  },
  {
    target: `${src}/store`,
    from: inSrc('api', 'core', 'http', 'providers', 'config', 'media', 'streaming', 'app.ts', 'cli.ts'),
    message: 'The store knows only the database (store/ and wire/).',
  },
  {
    target: inSrc('media', 'streaming', 'wire'),
    from: layersAbove(),
    message: 'media/, streaming/ and wire/ are leaf rooms: they import no gateway layer.',
  },
  {
    target: [`${src}/media`, `${src}/streaming`, `${src}/wire`],
    from: `${src}/providers`,
    message: 'media/, streaming/ and wire/ are leaf rooms: they import no provider (media throws its own MediaError).',
  },
  {
    target: `${src}/ocr-layout`,
    from: layersAbove('providers', 'media', 'streaming'),
    message: 'ocr-layout/ is a leaf room of pure functions over OCR pages: it imports only wire/.',
  },
  {
    target: `${src}/config`,
    from: [`${src}/api`, `${src}/core`, `${src}/http`, `${src}/store`, `${src}/app.ts`, `${src}/cli.ts`],
    message: 'Config is read by the layers; it reads none of them.',
  },
  {
    target: `${src}/config`,
    from: `${src}/providers`,
    except: ['./contracts'],
    message: 'Config names capabilities (providers/contracts) and no provider.',
  },
  {
    target: 'renderer',
    from: 'electron',
    except: ['./shared'],
    message: 'The renderer talks to Electron only through the preload API (its type is in electron/shared).',
  },
  {
    target: 'electron/shared',
    from: ['electron/main', 'electron/preload', 'gateway', 'renderer'],
    message: 'electron/shared holds the types the Electron side and the renderer share; it imports neither side.',
  },
  ...featureFolders.map((name) => ({
    target: `renderer/src/features/${name}`,
    from: 'renderer/src/features',
    except: [`./${name}`],
    message:
      'A feature never imports another feature: shared things live in renderer/src/components or renderer/src/lib.',
  })),
  {
    target: ['renderer/src/components', 'renderer/src/lib'],
    from: ['renderer/src/features', 'renderer/src/app'],
    message: 'Shared renderer code imports no feature or app shell.',
  },
];

const zonesRule = (list) => ['error', { basePath: root, zones: list.map(({ id: _id, ...zone }) => zone) }];

const restrict = (paths, patterns = []) => ({ 'no-restricted-imports': ['error', { paths, patterns }] });
const noElectron = { name: 'electron', message: plainNode };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'renderer/dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: {
      'import-x': importX,
      'check-file': checkFile,
      switchyard: { rules: { 'no-type-import-cycle': noTypeImportCycle } },
    },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.node'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': zonesRule(zones),
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'switchyard/no-type-import-cycle': 'error',
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx,js,mjs,cjs}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
    },
  },
  { files: ['renderer/**/*.{ts,tsx}'], languageOptions: { globals: { ...globals.browser } } },
  // The store is async (Kysely): a repository call that is not awaited loses its error or its order.
  // Type-aware, so only on the gateway's sources, where the repositories are called. Their types come
  // from the build's program (gateway/src and electron/main, preload: every global declaration is in
  // gateway/src), not tsconfig.json's, which also loads every test, e2e spec and bench file for nothing.
  {
    files: ['gateway/src/**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.build.json', tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  // Bare package names that a layer must not use. Each file matches exactly one of these blocks,
  // because a later block's `no-restricted-imports` replaces an earlier one's.
  {
    files: ['gateway/**/*.ts'],
    ignores: ['gateway/src/core/**'],
    rules: restrict([noElectron]),
  },
  {
    files: ['gateway/src/core/**/*.ts'],
    rules: restrict(
      [noElectron, { name: 'fastify', message: 'Core holds domain logic with no HTTP in it.' }],
      [{ group: ['@fastify/*'], message: 'Core holds domain logic with no HTTP in it.' }],
    ),
  },
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      ...restrict(
        [{ name: 'electron', message: 'The renderer talks to Electron only through the preload API.' }],
        [
          {
            // Subtitle formatting is the one pure module both sides run, so a downloaded .srt is the
            // gateway's own (house rule 2: one source).
            regex: '/gateway/(?!src/wire/subtitles$)',
            allowTypeImports: true,
            message: 'The renderer imports only types from the gateway (and the pure wire/subtitles module).',
          },
          {
            group: ['**/electron/**'],
            allowTypeImports: true,
            message: 'The renderer imports only types from electron/shared (the preload bridge).',
          },
        ],
      ),
    },
  },
  {
    files: ['electron/preload/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'error' },
  },
);
