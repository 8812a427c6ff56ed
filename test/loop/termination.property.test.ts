import { agent, steppingClock, stopReasons, stream, type Chunk } from '@agent-trace/core';
import { openai } from '@agent-trace/core/openai';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { setupServer } from 'msw/node';
import { memorySink, validateTrace } from '@agent-trace/trace';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedRun, echo, fail } from '../support/termination.js';

const toolCall = fc.oneof(
  fc.record({ name: fc.constant('echo'), args: fc.record({ text: fc.string({ maxLength: 8 }) }) }),
  fc.record({ name: fc.constant('echo'), args: fc.record({ text: fc.integer() }) }),
  fc.record({ name: fc.constant('fail'), args: fc.constant({}) }),
  fc.record({ name: fc.constantFrom('unknown', 'transfer_to_nowhere'), args: fc.constant({}) }),
  fc.record({
    name: fc.constant('echo'),
    argumentsText: fc.constantFrom('{', '[1,', 'not json', ''),
  }),
);

/** Hostile model behaviour: endless tool calls, bad calls, errors, empty replies. */
const step: fc.Arbitrary<FakeLLMStep> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ toolCalls: fc.array(toolCall, { minLength: 1, maxLength: 3 }) }),
  },
  { weight: 1, arbitrary: fc.record({ text: fc.string({ maxLength: 20 }) }) },
  { weight: 1, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.record({
      error: fc.record({ status: fc.constantFrom(400, 408, 429, 500, 503) }),
    }),
  },
);

/** What a provider's stream may do wrong: drop, send a chunk that is not JSON, or go silent. */
const wireFault: fc.Arbitrary<FakeLLMStep> = fc.record({
  text: fc.constantFrom('one two three', 'a'),
  cutAfterDeltas: fc.integer({ min: 0, max: 2 }),
  cutAs: fc.constantFrom('dropped', 'malformed_chunk', 'silence'),
});

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('the loop terminates', () => {
  it('within maxSteps × retry attempts model calls, with a known stop reason and a valid, sealed trace', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 0, maxLength: 14 }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        async (script, maxSteps, streaming) => {
          const model = fakeLLM(script, { allowUnusedSteps: true });
          const subject = agent({
            name: 'subject',
            model,
            tools: [echo, fail],
            limits: { maxSteps },
            circuitBreaker: false,
          });
          const { result, events } = await checkedRun(subject, streaming);
          // Each step may take up to 3 attempts (retryable model errors).
          expect(model.calls.length).toBeLessThanOrEqual(maxSteps * 3);
          expect(result.steps.length).toBeLessThanOrEqual(maxSteps);
          expect(events.map(event => event.seq)).toEqual(events.map((_, index) => index));
        },
      ),
      { numRuns: 500, seed: 20261121 },
    );
  });

  it('over the OpenAI wire, whatever the stream does: dropped, malformed chunks, silence', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(step, wireFault), { minLength: 0, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        async (script, maxSteps) => {
          const baseURL = 'http://wire-faults.test/v1';
          server.resetHandlers(...openaiHandlers(script, { baseURL }));
          const sink = memorySink();
          const subject = agent({
            name: 'subject',
            model: openai('gpt-4o-mini', { apiKey: 'k', baseURL }),
            tools: [echo, fail],
            // Real timers: a silent stream costs its idle timeout, so it is kept short here.
            limits: { maxSteps, streamIdleTimeoutMs: 3 },
            circuitBreaker: false,
          });
          const running = stream(subject, 'go', {
            trace: sink,
            clock: steppingClock(),
            random: () => 0.5,
          });
          const chunks: Chunk[] = [];
          for await (const chunk of running) chunks.push(chunk);
          const result = await running.result;
          expect(stopReasons).toContain(result.stopReason);
          expect(result.steps.length).toBeLessThanOrEqual(maxSteps);
          expect(validateTrace(sink.events).problems).toEqual([]);
          expect(sink.events.at(-1)).toMatchObject({
            event: 'run_end',
            stop_reason: result.stopReason,
          });
          expect(chunks.map(chunk => chunk.seq)).toEqual(chunks.map((_, index) => index));
        },
      ),
      { numRuns: 60, seed: 20261123 },
    );
  });
});
