import {
  agent,
  run,
  steppingClock,
  stopReasons,
  stream,
  tool,
  type Chunk,
} from '@agent-trace/core';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { assertTerminates, reactTextArbitrary } from '@agent-trace/testing/property';
import { memorySink, validateTrace } from '@agent-trace/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const echo = tool({
  name: 'echo',
  description: 'Echo',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});
const fail = tool({
  name: 'fail',
  description: 'Always throws',
  input: z.object({}),
  execute: () => {
    throw new Error('boom');
  },
});

/** A ReAct model's step: any text the arbitrary makes, now and then a provider error. */
const step: fc.Arbitrary<FakeLLMStep> = fc.oneof(
  {
    weight: 8,
    arbitrary: reactTextArbitrary({ toolNames: ['echo', 'fail'] }).map(text => ({ text })),
  },
  {
    weight: 1,
    arbitrary: fc.record({ error: fc.record({ status: fc.constantFrom(400, 429, 503) }) }),
  },
);

describe('the loop terminates in ReAct mode', () => {
  it('for any model text: a known stop reason, within maxSteps, a valid sealed trace, contiguous chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 14 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        async (script, maxSteps, maxMalformedAnswers, streaming) => {
          const model = fakeLLM(script, { allowUnusedSteps: true });
          const sink = memorySink();
          const subject = agent({
            name: 'subject',
            model,
            tools: [echo, fail],
            toolCalling: 'react',
            limits: { maxSteps, maxMalformedAnswers },
            circuitBreaker: false,
          });
          const options = { trace: sink, clock: steppingClock(), random: () => 0.5 };
          const chunks: Chunk[] = [];
          let result;
          if (streaming) {
            const running = stream(subject, 'go', options);
            for await (const chunk of running) chunks.push(chunk);
            result = await running.result;
          } else {
            result = await run(subject, 'go', options);
          }
          expect(stopReasons).toContain(result.stopReason);
          expect(model.calls.length).toBeLessThanOrEqual(maxSteps * 3);
          expect(model.calls.every(call => call.toolNames.length === 0)).toBe(true);
          const malformed = sink.events.filter(event => event.event === 'malformed_answer');
          expect(malformed.length).toBeLessThanOrEqual(maxMalformedAnswers + 1);
          if (result.stopReason === 'malformed_answer_limit')
            expect(malformed).toHaveLength(maxMalformedAnswers + 1);
          expect(validateTrace(sink.events).problems).toEqual([]);
          expect(sink.events.at(-1)).toMatchObject({
            event: 'run_end',
            stop_reason: result.stopReason,
          });
          expect(chunks.map(chunk => chunk.seq)).toEqual(chunks.map((_, index) => index));
        },
      ),
      { numRuns: 1000, seed: 20261616 },
    );
  });

  it('holds for assertTerminates with ReAct behaviours: loops, oscillation, handoff ping-pong', async () => {
    await assertTerminates(
      models => {
        const back = (): ReturnType<typeof agent> => front;
        const helper = agent({
          name: 'helper',
          model: models.for('helper'),
          tools: [echo],
          toolCalling: 'react',
          handoffs: [back],
          onHandoffCycle: 'refuse',
          limits: { maxSteps: 4 },
          circuitBreaker: false,
        });
        const front = agent({
          name: 'front',
          model: models.for('front'),
          tools: [echo, fail],
          toolCalling: 'react',
          handoffs: [helper],
          limits: { maxSteps: 4 },
          circuitBreaker: false,
        });
        return front;
      },
      {
        toolCalling: 'react',
        toolNames: ['echo', 'fail'],
        handoffTargets: ['helper', 'front'],
        limits: { maxSteps: 4 },
        numRuns: 150,
        seed: 1616,
      },
    );
  });
});
