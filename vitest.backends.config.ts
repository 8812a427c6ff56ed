import { defineConfig } from 'vitest/config';

/**
 * The backend tests (`pnpm test:backends`): real Jaeger and Phoenix processes, built or installed
 * once per machine by `scripts/backends/setup.sh`. Not part of the README's test command.
 */
export default defineConfig({
  test: {
    include: ['test/backends/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    setupFiles: ['@agent-trace/testing/vitest'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'threads',
    fileParallelism: false,
  },
});
