import { readFileSync } from 'node:fs';
import { tool, type ModelRequest } from '@agent-trace/core';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { z } from 'zod';

/** An msw server for the file's tests: nothing reaches a real API, handlers reset after each test. */
export function useMswServer(): SetupServer {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** A one-message model request, with `over` replacing what it names. */
export const modelRequest = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  instructions: 'Be brief.',
  messages: [{ role: 'user', content: 'Weather in Paris?' }],
  tools: [],
  agentName: 'tester',
  ...over,
});

/** A recorded provider response, kept in `test/fixtures/wire/` inside the repository. */
export const wireFixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/wire/${name}`, import.meta.url), 'utf8');

/** The tool the provider tests ask for. */
export const weatherTool = tool({
  name: 'get_weather',
  description: 'Weather',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 21°C`,
});
