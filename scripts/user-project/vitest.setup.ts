import '@agent-trace/testing/vitest';
