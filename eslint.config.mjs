import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { lintBlocks } from './scripts/layers.mjs';

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
    // The action's log lines go through logLine, which takes the workflow commands out of them.
    files: ['src/**/*.ts'],
    ignores: ['src/action/log.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'core',
          property: 'info',
          message:
            'Log through logLine (src/action/log.ts): core.info writes a text as it is, and the runner acts on a workflow command in it.',
        },
      ],
    },
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
