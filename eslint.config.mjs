// ESLint flat config for the whole repo: TypeScript sources (apps, libs, test, prisma, bench)
// and the plain-Node scripts. Type-aware rules are left out on purpose: `npm run typecheck`
// already runs tsc over the same files, and lint stays fast.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Globals of a CommonJS Node script (scripts/*.js, jest.config.js). */
const nodeGlobals = Object.fromEntries(
  [
    'require', 'module', 'exports', '__dirname', '__filename', 'process', 'console', 'Buffer',
    'URL', 'URLSearchParams', 'AbortController', 'AbortSignal', 'fetch', 'setTimeout', 'clearTimeout',
    'setInterval', 'clearInterval', 'setImmediate',
  ].map((name) => [name, 'readonly']),
);

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'coverage/**',
      'libs/db/src/generated/**',
      'libs/client/src/generated/**',
      'apps/admin/dist/**',
      '.tmp/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    rules: {
      // `_name` marks a parameter a signature needs but the body does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      // Nest modules are classes with only decorators.
      '@typescript-eslint/no-extraneous-class': 'off',
      // A `let` that a closure reads before its single assignment (timers set after the
      // cleanup function is defined) cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: nodeGlobals },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: nodeGlobals },
  },
);
