// Lint config. Besides the recommended rules it enforces the layer rule of docs/ARCHITECTURE.md
// "Processes and rooms": preload/contract imports nothing of ours but its own files and its
// dependency-free shared rules (rules/); the renderer imports only types from the contract (values
// from the shared rules) and nothing of main; main never imports the renderer; only main/index.ts
// and main/ipc/electron*.ts import `electron` (everything else in main runs under plain Node). The
// renderer never opens the browser's confirm/alert/prompt dialogs (docs/ARCHITECTURE.md "Visual design").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'artifacts/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', performance: 'readonly', fetch: 'readonly', AbortController: 'readonly', structuredClone: 'readonly', __dirname: 'readonly', NodeJS: 'readonly', window: 'readonly', document: 'readonly', location: 'readonly', history: 'readonly', sessionStorage: 'readonly', WebSocket: 'readonly', crypto: 'readonly', confirm: 'readonly', URLSearchParams: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/index.ts', 'main/ipc/electron*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['electron'], message: 'Only main/index.ts and main/ipc/electron*.ts may import electron.' }, { group: ['**/renderer/**'], message: 'main never imports the renderer.' }] }],
    },
  },
  {
    files: ['main/ipc/electron*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Import only types here (import type …) so it runs under a stand-in.', allowTypeImports: true }] }],
    },
  },
  {
    files: ['preload/contract/**/*.ts'],
    ignores: ['preload/contract/rules/**'],
    rules: {
      // Allowed: a sibling contract file (`./servers.js`) and the shared rules (`./rules/index.js`).
      // Refused: any other relative path (one that climbs out of the folder, or `./rules/x.js`),
      // electron, main, renderer.
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\./(rules/index|[a-z][a-z-]*)\\.js$)(\\.|electron(/|$)|.*/(main|renderer)/)', message: 'The contract imports nothing of ours but its own files (./x.js) and its shared rules (./rules/index.js).' }] }],
    },
  },
  {
    // The shared rules (docs/ARCHITECTURE.md "Shared rules"): plain TypeScript, no dependencies at all.
    files: ['preload/contract/rules/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\./[a-z-]+\\.js$)', message: 'The shared rules import nothing but each other.' }] }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/main/**', 'electron', 'node:*'], message: 'The renderer knows nothing of Node or main.' }] }],
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex: 'preload/contract/(?!rules/index\\.js$)', message: 'The renderer imports only types from the contract (values only from its shared rules, preload/contract/rules/index.js).', allowTypeImports: true }] }],
      // The window asks in its own words and focus order (components/ConfirmAsk.tsx), never with the browser's dialogs.
      'no-restricted-globals': ['error', ...['confirm', 'alert', 'prompt'].map((name) => ({ name, message: 'Use the app\'s own confirmation (components/ConfirmAsk.tsx), not the browser\'s dialog.' }))],
      'no-restricted-properties': ['error', ...['confirm', 'alert', 'prompt'].map((property) => ({ object: 'window', property, message: 'Use the app\'s own confirmation (components/ConfirmAsk.tsx), not the browser\'s dialog.' }))],
    },
  },
  {
    files: ['test/**/*.{ts,mjs}', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
