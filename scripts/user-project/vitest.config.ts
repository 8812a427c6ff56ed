import { defineConfig } from 'vitest/config';

// As the README says: the setup file registers the matchers and brings their types.
export default defineConfig({ test: { setupFiles: ['./vitest.setup.ts'] } });
