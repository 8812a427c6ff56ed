import { agent } from '@agent-trace/core';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { assertTerminates, reactTextArbitrary } from '@agent-trace/testing/property';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkedRun, echo, fail } from '../../support/termination.js';

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
          const subject = agent({
            name: 'subject',
            model,
            tools: [echo, fail],
            toolCalling: 'react',
            limits: { maxSteps, maxMalformedAnswers },
            circuitBreaker: false,
          });
          const { result, events } = await checkedRun(subject, streaming);
          expect(model.calls.length).toBeLessThanOrEqual(maxSteps * 3);
          expect(model.calls.every(call => call.toolNames.length === 0)).toBe(true);
          const malformed = events.filter(event => event.event === 'malformed_answer');
          expect(malformed.length).toBeLessThanOrEqual(maxMalformedAnswers + 1);
          if (result.stopReason === 'malformed_answer_limit')
            expect(malformed).toHaveLength(maxMalformedAnswers + 1);
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
