import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'test/**/*.test.ts',
      'docs/examples/**/*.test.ts',
    ],
    // The backend tests start real Jaeger and Phoenix: `pnpm test:backends` runs them.
    exclude: ['**/node_modules/**', 'test/backends/**'],
    testTimeout: 20_000,
    setupFiles: ['@agent-trace/testing/vitest'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'threads',
  },
});
