import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-app/**',
      'traces/**',
      'golden/**',
      'bench/results/**',
      // A separate project (its own package.json), type-checked and run by scripts/check-user-project.sh
      'scripts/user-project/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Use explicit named exports.' },
      ],
      'no-console': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**', 'bench/**', 'examples/**'],
    rules: {
      'no-console': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  {
    // The loop is at the top: nothing else in core reaches into run/ (vocabulary is in protocol/).
    files: ['packages/core/src/*/**/*.ts'],
    ignores: ['packages/core/src/run/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../run/*'],
              message: 'Only run/ uses run/: take vocabulary from protocol/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Workflows and planning sit above the loop, in their own room: they use the run's kernel
    // (opening and sealing a run, running an agent's turn, paused states), not the turn's insides.
    files: ['packages/core/src/workflow/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../run/*',
                '!../run/agent-outcome.js',
                '!../run/approval-events.js',
                '!../run/create-run-state.js',
                '!../run/resumed-start.js',
                '!../run/run-frame.js',
                '!../run/run-options.js',
                '!../run/run-snapshot.js',
                '!../run/run-state.js',
                '!../run/to-trace-error.js',
              ],
              message:
                "A feature uses the run's kernel API only (run-frame, agent-outcome, states).",
            },
          ],
        },
      ],
    },
  },
  {
    // The turn does not reach into the features that sit above it.
    files: ['packages/core/src/run/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../workflow/*'], message: 'run/ holds the turn: workflows sit above it.' },
          ],
        },
      ],
    },
  },
  {
    // No hidden arrows: core depends on no other agent-trace package, not even through a computed
    // import, and reads no environment (the adapters read their API keys, as the vendors' SDKs do).
    files: ['packages/core/src/**/*.ts'],
    ignores: ['packages/core/src/providers/**', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Use explicit named exports.' },
        {
          selector: 'ImportDeclaration[source.value=/^@agent-trace\\//]',
          message: 'Core depends on no other agent-trace package: they depend on it.',
        },
        {
          selector: 'ImportExpression[source.type!="Literal"]',
          message: 'Import by a literal specifier, so the import graph shows the dependency.',
        },
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Core reads no environment: the application or the trace package registers it.',
        },
      ],
    },
  },
  {
    // The vocabulary (stop reasons, records, chunks, the trace event schema) sits at the bottom of
    // core: it imports nothing else from core.
    files: ['packages/core/src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*'], message: 'protocol/ imports nothing else from core.' }] },
      ],
    },
  },
  {
    // Every package stays readable: functions of at most 80 lines, files of at most 400 (blank
    // lines and comments aside); a longer one is split by concept.
    files: [
      'packages/*/src/**/*.ts',
      'packages/*/src/**/*.tsx',
      'packages/viewer/app/**/*.{ts,tsx}',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  { files: ['**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  prettier,
);
