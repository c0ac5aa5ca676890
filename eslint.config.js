import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'renderer/dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['renderer/**/*.{ts,tsx}'], languageOptions: { globals: { ...globals.browser } } },
  // Dependency directions (DESIGN.md): api -> core -> providers | store; nothing in gateway
  // imports electron or renderer; the renderer imports only types from the gateway.
  {
    files: ['gateway/**/*.ts'],
    rules: restrict([
      { group: ['**/electron/**', 'electron', '**/renderer/**'], message: 'The gateway is plain Node: no Electron or renderer imports.' },
    ]),
  },
  {
    files: ['gateway/src/providers/**/*.ts'],
    rules: restrict([
      { group: ['**/api/**', '**/core/**', '**/http/**', '!**/_shared/http/**', '!../http/*', '**/store/**'], message: 'Providers are adapters: they import only providers/ and streaming/.' },
      { group: ['**/electron/**', 'electron', '**/renderer/**'], message: 'The gateway is plain Node.' },
    ]),
  },
  {
    files: ['gateway/src/store/**/*.ts'],
    rules: restrict([
      { group: ['**/api/**', '**/core/**', '**/http/**', '**/providers/**'], message: 'The store knows only the database.' },
    ]),
  },
  {
    files: ['gateway/src/core/**/*.ts'],
    rules: restrict([
      { group: ['**/api/**', '**/http/**', 'fastify', '@fastify/*'], message: 'Core holds domain logic with no HTTP in it.' },
      { group: ['**/providers/*/**', '!**/providers/_shared/**', '!**/providers/contracts/**', '!**/providers/index.js'], message: 'Core reaches providers only through providers/index.ts and providers/contracts/.' },
    ]),
  },
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      ...restrict([
        { group: ['**/gateway/**'], allowTypeImports: true, message: 'The renderer imports only types from the gateway.' },
        { group: ['**/electron/**', 'electron'], message: 'The renderer talks to Electron only through the preload API.' },
      ]),
    },
  },
  {
    files: ['electron/preload/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'error' },
  },
);
