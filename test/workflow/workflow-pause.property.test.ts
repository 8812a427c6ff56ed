/**
 * Random workflows that wait for people (approval steps, agent steps whose agent asks for
 * approval), answered with random decisions until they end: each pause goes on once, every
 * approved call runs once and no rejected one runs, the run ends with a known stop reason, and the
 * parts make one valid run.
 */
import { agent, sequentialIds, stopReasons, tool, virtualClock } from '@agent-trace/core';
import { type ApprovalDecision } from '@agent-trace/core/approval';
import {
  resumeWorkflow,
  runWorkflow,
  workflow,
  type WorkflowResult,
  type WorkflowStepDefinition,
} from '@agent-trace/core/workflow';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

type Kind = 'tool' | 'approval' | 'asking agent';

const specs = fc.integer({ min: 1, max: 6 }).chain(size =>
  fc.array(
    fc.record({
      kind: fc.constantFrom<Kind>('tool', 'approval', 'asking agent'),
      // A dependency on the step before, or none: a chain, a fan, or anything between.
      chained: fc.boolean(),
    }),
    { minLength: size, maxLength: size },
  ),
);

/** The workflow of the specs, and the log of the calls that ran. */
function build(steps: readonly { kind: Kind; chained: boolean }[]) {
  const ran: string[] = [];
  const definitions = steps.map(({ kind, chained }, index): WorkflowStepDefinition => {
    const name = `s${index}`;
    const base = { name, ...(chained && index > 0 ? { dependsOn: [`s${index - 1}`] } : {}) };
    if (kind === 'approval') return { ...base, approval: `Go on after ${name}?` };
    if (kind === 'tool')
      return {
        ...base,
        tool: tool({
          name: `t${index}`,
          description: name,
          input: z.unknown(),
          execute: () => name,
        }),
      };
    const refund = tool({
      name: 'refund',
      description: 'Refunds',
      input: z.object({ step: z.string() }),
      needsApproval: true,
      execute: ({ step }) => {
        ran.push(step);
        return `refunded for ${step}`;
      },
    });
    const model = fakeLLM(
      [
        { toolCalls: [{ name: 'refund', args: { step: name }, id: `call-${name}` }] },
        { text: `${name} done` },
      ],
      { allowUnusedSteps: true },
    );
    return { ...base, agent: agent({ name: `agent_${index}`, model, tools: [refund] }) };
  });
  return { flow: workflow({ name: 'random', steps: definitions }), ran };
}

describe('random workflows that wait for people', () => {
  it('go on once per pause, run each approved call once, end known and as one valid run', async () => {
    await fc.assert(
      fc.asyncProperty(specs, fc.infiniteStream(fc.boolean()), async (steps, approvals) => {
        const { flow, ran } = build(steps);
        const sink = memorySink();
        const same = { trace: sink, clock: virtualClock(), ids: sequentialIds() };
        let result: WorkflowResult = await runWorkflow(flow, null, same);
        const approved: string[] = [];
        let resumes = 0;
        while (result.state !== undefined) {
          expect(result.stopReason).toBe('interrupted');
          const decisions = result.interruptions.map((pending): ApprovalDecision => {
            const yes = approvals.next().value as boolean;
            if (yes && pending.kind === 'tool')
              approved.push((pending.args as { step: string }).step);
            return yes
              ? { callId: pending.callId, decision: 'approve' }
              : { callId: pending.callId, decision: 'reject', reason: 'no' };
          });
          const state = JSON.stringify(result.state);
          result = await resumeWorkflow(flow, state, { ...same, decisions });
          // The same state again is refused: it went on once.
          await expect(resumeWorkflow(flow, state, { ...same, decisions })).rejects.toThrow(
            /already resumed/,
          );
          resumes++;
          expect(resumes).toBeLessThanOrEqual(steps.length);
        }
        expect(stopReasons).toContain(result.stopReason);
        expect(['completed', 'workflow_step_failed']).toContain(result.stopReason);
        expect(ran.sort()).toEqual(approved.sort());
        const report = validateTrace(sink.events);
        expect(report.problems).toEqual([]);
        expect(report.runs).toHaveLength(1);
      }),
      { numRuns: 100, seed: 2711 },
    );
  });
});
