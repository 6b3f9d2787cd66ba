import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', '.tools/**', 'artifacts/**', 'dist/**', 'dist.*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(fs|path|crypto|http|https|net|os|stream|url|util|child_process|events|readline|zlib)$',
              message: 'Import built-ins with the node: prefix.',
            },
          ],
        },
      ],
    },
  },
  {
    // One transaction helper (docs/adr/0045): a transaction is opened with `withAfterCommit`, never by hand.
    files: ['**/*.ts'],
    ignores: ['test/**', 'subgraphs/shared/after-commit.ts', 'subgraphs/shared/entity-drift.ts', '**/migrations/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(transactional|begin)$/]',
          message: 'Open a transaction with withAfterCommit (subgraphs/shared/after-commit.ts), which also runs work after its commit.',
        },
      ],
    },
  },
  {
    // The console runs in the browser as plain ES modules; so does the GraphQL explorer's page script.
    files: ['console/**/*.js', 'gateway/explorer/*.browser.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'atob',
          'btoa',
          'confirm',
          'crypto',
          'document',
          'fetch',
          'FormData',
          'history',
          'Intl',
          'location',
          'navigator',
          'sessionStorage',
          'TextDecoder',
          'TextEncoder',
          'URL',
          'URLSearchParams',
          'window',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);
