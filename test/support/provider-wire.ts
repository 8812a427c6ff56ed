import { readFileSync } from 'node:fs';
import { tool, type ModelRequest, type TraceEvent } from '@agent-trace/core';
import { normalizeTrace } from '@agent-trace/testing';
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

/**
 * What differs by provider by design: names, prices, the answer's id and model, the server, and
 * the order parts side by side were made in.
 */
const providerFields = [
  'model',
  'provider',
  'cost_usd',
  'cost',
  'response_id',
  'response_model',
  'server',
  // When parts side by side took their turns: a provider's answers arrive in their own time.
  'made',
  'decided_made',
] as const;
/** And how a stream is cut into chunks, which is the provider's too. */
const streamFields = ['stream', 'first_chunk_ms', 'chunks'] as const;

/**
 * A trace normalised (times, durations, ids) without what differs by provider by design, so the
 * same behaviour served by FakeLLM and over a provider's wire compares equal; `streamed` also
 * leaves out how the stream was cut.
 */
export function withoutProviderDetails(
  events: readonly TraceEvent[],
  { streamed = false }: { streamed?: boolean } = {},
): Record<string, unknown>[] {
  const dropped = new Set<string>(streamed ? [...providerFields, ...streamFields] : providerFields);
  return normalizeTrace(events).map(event =>
    Object.fromEntries(Object.entries(event).filter(([key]) => !dropped.has(key))),
  );
}
