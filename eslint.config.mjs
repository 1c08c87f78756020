import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { lintBlocks } from './scripts/layers.mjs';

const LOG = 'Log through logLine (src/action/log.ts)';
/** What writes a text to the log as it is, where the runner acts on a workflow command in it. */
const LOG_SINKS = [
  { object: 'core', property: 'info', message: `${LOG}: core.info writes a text as it is.` },
  { object: 'process', property: 'stdout', message: `${LOG}, not to stdout.` },
  { object: 'process', property: 'stderr', message: `${LOG}, not to stderr.` },
  { object: 'console', message: `${LOG}, not console.` },
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'bench/.cache/',
      'bench/.node/',
      '.vitest-tmp/',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      // The one program tsconfig.json describes (every .ts file of the repository is in it),
      // built once for the whole run: the project service built it per file's project, some
      // 5 s more CPU on every fresh clone. A .ts file left out of tsconfig.json fails lint.
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // Each layer of src/ imports only the layers below it that scripts/layers.mjs names.
  ...lintBlocks(),
  {
    // The action's log lines go through logLine, which takes the workflow commands out of them;
    // in src/action nothing else writes to the log but @actions/core's commands (their data is
    // escaped). The CLI's output goes through noWorkflowCommands in src/cli.ts.
    files: ['src/**/*.ts'],
    ignores: ['src/action/log.ts'],
    rules: { 'no-restricted-properties': ['error', ...LOG_SINKS.slice(0, 1)] },
  },
  {
    files: ['src/action/**/*.ts'],
    ignores: ['src/action/log.ts'],
    rules: { 'no-restricted-properties': ['error', ...LOG_SINKS] },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
      },
    },
  },
);
