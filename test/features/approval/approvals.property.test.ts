import { agent, stopReasons, tool } from '@agent-trace/core';
import { type ApprovalDecision } from '@agent-trace/core/approval';
import {
  decideBy,
  fakeLLM,
  runWithApprover,
  type FakeLLMStep,
  type Verdict,
} from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deterministic } from '../../support/deterministic.js';

const refund = tool({
  name: 'refund',
  description: 'Refund an order',
  input: z.object({ order: z.number(), amount: z.number() }),
  needsApproval: ({ amount }) => amount > 50,
  execute: ({ amount }) => `refunded ${amount}`,
});
const note = tool({
  name: 'note',
  description: 'Write a note',
  input: z.object({ text: z.string() }),
  needsApproval: true,
  execute: ({ text }) => text,
});

/** A model step: refunds and notes (some needing approval, some malformed), text, or an error. */
const step: fc.Arbitrary<FakeLLMStep> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(
        fc.oneof(
          fc.record({
            name: fc.constant('refund'),
            args: fc.record({ order: fc.nat(99), amount: fc.integer({ min: 0, max: 200 }) }),
          }),
          fc.record({
            name: fc.constant('note'),
            args: fc.record({ text: fc.string({ maxLength: 5 }) }),
          }),
          fc.record({ name: fc.constant('refund'), argumentsText: fc.constant('{"order":') }),
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map(toolCalls => ({ toolCalls })),
  },
  { weight: 1, arbitrary: fc.record({ text: fc.string({ maxLength: 10 }) }) },
  { weight: 1, arbitrary: fc.constant({ error: { status: 400 } }) },
);

/** A person's decision on one call. */
const verdict: fc.Arbitrary<Verdict> = fc.oneof(
  fc.constant<Verdict>({ decision: 'approve', by: 'p' }),
  fc.string({ maxLength: 8 }).map((reason): Verdict => ({ decision: 'reject', reason })),
  fc.integer({ min: 0, max: 50 }).map((amount): Verdict => ({
    decision: 'edit',
    args: { order: 1, amount, text: 'edited' },
  })),
);

describe('approvals terminate', () => {
  it('for any model and any approve, reject and edit decisions: a known stop reason, one valid run', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 8 }),
        fc.infiniteStream(verdict),
        fc.integer({ min: 1, max: 4 }),
        async (script, verdicts, maxSteps) => {
          const sink = memorySink();
          const decisions: ApprovalDecision[] = [];
          const { result } = await runWithApprover(
            agent({
              name: 'desk',
              model: fakeLLM(script, { allowUnusedSteps: true }),
              tools: [refund, note],
              limits: { maxSteps },
              circuitBreaker: false,
            }),
            'go',
            decideBy(approval => {
              const { value } = verdicts.next() as IteratorYieldResult<Verdict>;
              decisions.push({ ...value, callId: approval.callId });
              return value;
            }),
            { trace: sink, ...deterministic(), maxPauses: 20 },
          );
          expect(stopReasons).toContain(result.stopReason);
          // Every pause is answered: only a model that keeps asking after 20 pauses stays paused.
          if (result.stopReason === 'interrupted') expect(result.state).toBeDefined();
          const report = validateTrace(sink.events);
          expect(report.problems).toEqual([]);
          expect(report.runs).toHaveLength(1);
          expect(sink.events.map(event => event.seq)).toEqual(sink.events.map((_, index) => index));
          const resolved = sink.events.filter(event => event.event === 'approval_resolved');
          expect(resolved).toHaveLength(decisions.length);
        },
      ),
      { numRuns: 300, seed: 1717 },
    );
  });
});
