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
      // The backends the backend tests build and install (Jaeger, Phoenix's virtual environment)
      '.cache/**',
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
    // The guides' examples show a value by naming it (`result.status; // 'completed' | …`).
    files: ['docs/examples/**'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    // Core reads kernel → features → adapters. Within the kernel, the turn (run/) is at the top:
    // the kernel's other rooms do not reach into it (vocabulary is in protocol/).
    files: ['packages/core/src/kernel/**/*.ts'],
    ignores: ['packages/core/src/kernel/run/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./run/',
              message: 'Only run/ uses run/: take vocabulary from protocol/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The kernel knows no feature, adapter or runner at run time: features enter the loop through
    // the seam (run/feature.ts) and the runner registers them. Their types may be named (the
    // options a run takes, the vocabulary of a pause).
    files: ['packages/core/src/kernel/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/(features|adapters|runner)/',
              allowTypeImports: true,
              message:
                'The kernel does not load features or adapters: add a hook to the seam (kernel/run/seam/feature.ts) and register the feature in runner/standard-features.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // A feature meets the loop only through the seam, and does not know the runner.
    files: ['packages/core/src/features/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/kernel/run/(?!seam/feature\\.js$|frame/kernel-options\\.js$)',
              message:
                'A feature meets the loop through the seam: import from kernel/run/seam/feature.js (no turn, no run state).',
            },
            { regex: '/runner/', message: 'A feature does not know the runner that registers it.' },
          ],
        },
      ],
    },
  },
  {
    // Runners — run/stream/resume (runner/) and workflows and planning (workflow/) — open, pause
    // and seal runs and run agents' turns through the kernel's runner API, not the turn's insides.
    files: ['packages/core/src/runner/**/*.ts', 'packages/core/src/workflow/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/kernel/run/(?!frame/runner-api\\.js$|seam/feature\\.js$)',
              message:
                "A runner uses the kernel's runner API (kernel/run/frame/runner-api.js) and the seam only.",
            },
          ],
        },
      ],
    },
  },
  {
    // Adapters (providers, MCP) speak the kernel's model and tool interfaces, nothing above them.
    files: ['packages/core/src/adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/(features|runner|kernel/run)/',
              message: "An adapter implements the kernel's model or tool interfaces only.",
            },
          ],
        },
      ],
    },
  },
  {
    // No hidden arrows: core depends on no other agent-trace package, not even through a computed
    // import, and reads no environment (the adapters read their API keys, as the vendors' SDKs do).
    files: ['packages/core/src/**/*.ts'],
    ignores: ['packages/core/src/adapters/providers/**', '**/*.test.ts'],
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
        {
          selector: 'Literal[value=/^gen_ai\\./], TemplateElement[value.raw=/^gen_ai\\./]',
          message:
            'GenAI convention names belong to the trace package, from @opentelemetry/semantic-conventions.',
        },
      ],
    },
  },
  {
    // The vocabulary (stop reasons, records, chunks, the trace event schema) sits at the bottom of
    // core: it imports nothing else from core.
    files: ['packages/core/src/kernel/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*'], message: 'protocol/ imports nothing else from core.' }] },
      ],
    },
  },
  {
    // The CLI's program loads a command's module only when that command runs (through
    // program/command-modules.ts), so one command does not start every other's dependencies.
    files: ['packages/cli/src/program.ts', 'packages/cli/src/program/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/commands/(?!command-result|page-limit)',
              allowTypeImports: true,
              message:
                "Load a command's module when it runs: add it to program/command-modules.ts and await it in the command's action.",
            },
            {
              regex: '^@agent-trace/trace/library$',
              allowTypeImports: true,
              message:
                "The trace library is a command's: import it through program/command-modules.ts.",
            },
          ],
        },
      ],
    },
  },
  {
    // Packages build on core's public entries: bridges and extensions record through
    // `@agent-trace/core/record` and share `@agent-trace/core/util`, as a user's bridge would.
    files: ['packages/*/src/**/*.{ts,tsx}', 'packages/viewer/app/**/*.{ts,tsx}'],
    ignores: ['packages/core/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Use explicit named exports.' },
        {
          selector: 'ImportDeclaration[source.value=/^@agent-trace\\/[^/]+\\/internal$/]',
          message:
            "No package imports another's internal entry: use @agent-trace/core/record (recording runs) or @agent-trace/core/util, or make what you need public there.",
        },
        {
          selector: 'ImportExpression[source.value=/^@agent-trace\\/[^/]+\\/internal$/]',
          message: "No package imports another's internal entry.",
        },
        {
          selector: 'Literal[value=/^gen_ai\\./], TemplateElement[value.raw=/^gen_ai\\./]',
          message:
            'Name GenAI conventions by their constant from @opentelemetry/semantic-conventions/incubating (through semconv.ts), not a hand-typed string.',
        },
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
