/**
 * A planned run pauses when its plan's workflow waits for a person (an approval step, or an agent
 * step whose agent asks for approval), and goes on from its state with `resumePlan`, once.
 */
import { agent, ConfigurationError, sequentialIds, steppingClock, tool } from '@agent-trace/core';
import { StateAlreadyResumedError, type ApprovalDecision } from '@agent-trace/core/approval';
import { planAndRun, resumePlan, type PlanStateSnapshot } from '@agent-trace/core/workflow';
import { fakeLLM, fakeTool, type FakeLLMStep } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

const published: unknown[] = [];
beforeEach(() => {
  published.length = 0;
});

function tools() {
  return [
    fakeTool('draft_notes', {
      description: 'Drafts release notes.',
      input: z.object({ version: z.number() }),
      respond: ({ version }: { version: number }) => `notes for v${version}`,
    }),
    tool({
      name: 'publish',
      description: 'Publishes notes.',
      input: z.unknown(),
      execute: value => {
        if (value === 'broken') throw new Error('the site is down');
        published.push(value);
        return 'published';
      },
    }),
  ];
}

const approvalPlan = `workflow:
  name: release
  steps:
    - name: draft
      tool: draft_notes
      input: { version: 2 }
    - name: sign-off
      approval: Publish these notes?
      depends_on: [draft]
    - name: publish
      tool: publish
      depends_on: [draft, sign-off]
      input: "\${steps.draft.output}"
`;

const planner = (script: FakeLLMStep[]) =>
  agent({ name: 'planner', model: fakeLLM(script), instructions: 'You plan work.' });

/** Plans and pauses; the state through JSON, as another process would read it. */
async function paused(plan: string, more: Parameters<typeof planAndRun>[2] = {}) {
  const sink = memorySink();
  const same = { clock: steppingClock(), ids: sequentialIds(), trace: sink };
  const result = await planAndRun(planner([{ text: plan }]), 'Release v2', {
    tools: tools(),
    ...same,
    ...more,
  });
  const state = JSON.parse(JSON.stringify(result.state)) as PlanStateSnapshot;
  return { result, state, sink, same };
}

const approve: ApprovalDecision[] = [{ callId: 'sign-off', decision: 'approve', by: 'ana' }];

describe('a planned run paused by its plan', () => {
  it('pauses at an approval step with a plan state, and goes on from it once', async () => {
    const { result, state, sink, same } = await paused(approvalPlan);
    expect(result).toMatchObject({ stopReason: 'interrupted', status: 'interrupted' });
    expect(result.interruptions).toMatchObject([{ callId: 'sign-off', kind: 'workflow_step' }]);
    expect(state).toMatchObject({
      format: 'agent-trace/plan-state',
      version: 1,
      run: { request: 'Release v2', planner: 'planner' },
      plans: [{ revision: 1, verdict: 'accepted' }],
    });
    expect(published).toEqual([]);

    const done = await resumePlan(planner([]), JSON.stringify(state), {
      tools: tools(),
      decisions: approve,
      ...same,
    });
    expect(done).toMatchObject({ stopReason: 'completed', output: 'published' });
    expect(done.plans.map(plan => [plan.revision, plan.status])).toEqual([[1, 'completed']]);
    expect(published).toEqual(['notes for v2']);
    const report = validateTrace(sink.events);
    expect(report.problems).toEqual([]);
    expect(report.runs).toHaveLength(1);
    expect(sink.events.filter(event => event.event === 'plan')).toHaveLength(1);

    await expect(
      resumePlan(planner([]), state, { tools: tools(), decisions: approve }),
    ).rejects.toThrow(StateAlreadyResumedError);
    expect(published).toEqual(['notes for v2']);
  });

  it('pauses inside an agent step of the plan and goes on in that agent', async () => {
    const refund = tool({
      name: 'refund',
      description: 'Refunds',
      input: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: ({ amount }) => {
        published.push(amount);
        return `refunded ${amount}`;
      },
    });
    const deskScript: FakeLLMStep[] = [
      { toolCalls: [{ name: 'refund', args: { amount: 80 }, id: 'r1' }] },
    ];
    const desk = (script: FakeLLMStep[]) =>
      agent({
        name: 'desk',
        description: 'Refunds orders.',
        model: fakeLLM(script),
        tools: [refund],
      });
    const plan = `workflow:\n  name: claims\n  steps:\n    - name: settle\n      agent: desk\n      input: Refund order 42\n`;
    const { result, state, same } = await paused(plan, { agents: [desk(deskScript)] });
    expect(result.interruptions).toMatchObject([
      { callId: 'r1', toolName: 'refund', agent: 'desk' },
    ]);
    const done = await resumePlan(planner([]), state, {
      tools: tools(),
      agents: [desk([{ text: 'Refunded 80.' }])],
      decisions: [{ callId: 'r1', decision: 'approve' }],
      ...same,
    });
    expect(done).toMatchObject({ stopReason: 'completed', output: 'Refunded 80.' });
    expect(published).toEqual([80]);
  });

  it('re-plans after the pause when a step then fails, with the conversation carried on', async () => {
    const failing = approvalPlan.replace('"${steps.draft.output}"', 'broken');
    const { state, same, sink } = await paused(failing);
    const second = `workflow:\n  name: release-again\n  steps:\n    - name: publish\n      tool: publish\n      input: notes for v2\n`;
    const replanner = fakeLLM([
      request => {
        // The first request, the first plan and the failure are all in the conversation.
        expect(request.messages.map(message => message.role)).toEqual([
          'user',
          'assistant',
          'user',
        ]);
        expect(request.messages.at(-1)?.content).toContain("failed at step 'publish'");
        return { text: second };
      },
    ]);
    const done = await resumePlan(
      agent({ name: 'planner', model: replanner, instructions: 'You plan work.' }),
      state,
      { tools: tools(), decisions: approve, ...same },
    );
    expect(done.stopReason).toBe('completed');
    expect(done.plans.map(plan => [plan.revision, plan.reason, plan.status])).toEqual([
      [1, 'request', 'failed'],
      [2, 'step_failed', 'completed'],
    ]);
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('refuses, using nothing up, a state whose plan no longer loads or made by another planner', async () => {
    const { state } = await paused(approvalPlan);
    await expect(resumePlan(planner([]), state, { tools: [], decisions: approve })).rejects.toThrow(
      /no longer loads with the tools and agents given: plan 1:/,
    );
    await expect(
      resumePlan(agent({ name: 'other', model: fakeLLM([]) }), state, { decisions: approve }),
    ).rejects.toThrow(ConfigurationError);
    const done = await resumePlan(planner([]), state, { tools: tools(), decisions: approve });
    expect(done.stopReason).toBe('completed');
  });
});
