/**
 * An agent step whose agent asks for approval pauses the workflow (the run ends `interrupted`
 * with a state) and goes on inside that agent's turn with the people's decisions, as one run.
 */
import { fileURLToPath } from 'node:url';
import {
  agent,
  ConfigurationError,
  sequentialIds,
  steppingClock,
  tool,
  type LanguageModel,
} from '@agent-trace/core';
import { StateAlreadyResumedError, type ApprovalDecision } from '@agent-trace/core/approval';
import { resumeWorkflow, runWorkflow, workflow } from '@agent-trace/core/workflow';
import { compareGoldenTrace, fakeLLM, fakeTool, type FakeLLMStep } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

const directory = fileURLToPath(new URL('../../golden', import.meta.url));

const refunds: number[] = [];
beforeEach(() => {
  refunds.length = 0;
});
const refund = tool({
  name: 'refund',
  description: 'Refunds an amount',
  input: z.object({ amount: z.number() }),
  needsApproval: ({ amount }) => amount > 50,
  execute: ({ amount }) => {
    refunds.push(amount);
    return `refunded ${amount}`;
  },
});

const beforePause: FakeLLMStep[] = [
  { toolCalls: [{ name: 'refund', args: { amount: 80 }, id: 'r1' }] },
];
const afterApproval: FakeLLMStep[] = [{ text: 'Refunded 80.' }];

/** Look the order up, let the desk agent refund it, then notify; an audit step runs beside. */
function claims(model: LanguageModel, options: { forEach?: boolean } = {}) {
  const desk = agent({ name: 'desk', model, tools: [refund] });
  return workflow({
    name: 'claims',
    steps: [
      {
        name: 'lookup',
        tool: fakeTool('lookup', {
          input: z.unknown(),
          respond: () => ({ order: 42, amount: 80 }),
        }),
      },
      {
        name: 'settle',
        agent: desk,
        dependsOn: ['lookup'],
        ...(options.forEach === true ? { forEach: 'input.claims' } : {}),
      },
      {
        name: 'notify',
        tool: fakeTool('notify', { input: z.unknown(), respond: value => ({ sent: value }) }),
        dependsOn: ['settle'],
      },
      { name: 'audit', tool: fakeTool('audit', { input: z.unknown(), respond: () => 'ok' }) },
    ],
  });
}

const deterministic = () => ({ clock: steppingClock(), ids: sequentialIds() });

async function pauseThenResume(decision: Omit<ApprovalDecision, 'callId'>, after: FakeLLMStep[]) {
  const sink = memorySink();
  // One clock and one id counter across both parts, as one run has.
  const same = deterministic();
  const paused = await runWorkflow(claims(fakeLLM(beforePause)), null, {
    ...same,
    trace: sink,
  });
  // Stored and read back, and the workflow built again, as another process would.
  const stored = JSON.stringify(paused.state);
  const resumed = await resumeWorkflow(claims(fakeLLM(after)), stored, {
    ...same,
    trace: sink,
    decisions: [{ callId: 'r1', ...decision } as ApprovalDecision],
  });
  return { paused, resumed, events: sink.events, stored };
}

describe('a workflow paused inside an agent step', () => {
  it('pauses the run: the agent step waits, its dependents wait, the others run', async () => {
    const paused = await runWorkflow(claims(fakeLLM(beforePause)), null, deterministic());
    expect(paused.stopReason).toBe('interrupted');
    expect(paused.detail).toBe("waits for approval of 'r1'");
    expect(paused.interruptions).toMatchObject([
      { callId: 'r1', toolName: 'refund', kind: 'tool', agent: 'desk', args: { amount: 80 } },
    ]);
    expect(paused.steps.map(step => [step.name, step.status])).toEqual([
      ['lookup', 'completed'],
      ['settle', 'interrupted'],
      ['audit', 'completed'],
    ]);
    expect(paused.state?.agentSteps).toMatchObject([{ step: 'settle', attempt: 1 }]);
    expect(refunds).toEqual([]);
  });

  it('approved: goes on inside the agent, the refund runs once, the rest of the workflow runs', async () => {
    const { resumed, events } = await pauseThenResume(
      { decision: 'approve', by: 'ana' },
      afterApproval,
    );
    expect(resumed).toMatchObject({ stopReason: 'completed', status: 'completed' });
    expect(refunds).toEqual([80]);
    expect(resumed.steps.map(step => [step.name, step.status])).toEqual([
      ['lookup', 'completed'],
      ['settle', 'completed'],
      ['notify', 'completed'],
      ['audit', 'completed'],
    ]);
    expect(resumed.steps.find(step => step.name === 'notify')?.output).toEqual({
      sent: 'Refunded 80.',
    });
    expect(validateTrace(events).problems).toEqual([]);
    expect(validateTrace(events).runs).toHaveLength(1);
    compareGoldenTrace('workflow-agent-approval', events, { directory });
  });

  it('rejected: the agent reads the refusal and answers without the call', async () => {
    const { resumed } = await pauseThenResume({ decision: 'reject', reason: 'over the limit' }, [
      request => {
        const last = request.messages.at(-1);
        expect(last?.role === 'tool' && last.content).toContain('over the limit');
        return { text: 'Offered store credit instead.' };
      },
    ]);
    expect(resumed.stopReason).toBe('completed');
    expect(refunds).toEqual([]);
    expect(resumed.steps.find(step => step.name === 'notify')?.output).toEqual({
      sent: 'Offered store credit instead.',
    });
  });

  it('goes on once: a second resume of the state is refused', async () => {
    const { stored } = await pauseThenResume({ decision: 'approve' }, afterApproval);
    await expect(
      resumeWorkflow(claims(fakeLLM([])), stored, {
        decisions: [{ callId: 'r1', decision: 'approve' }],
      }),
    ).rejects.toThrow(StateAlreadyResumedError);
    expect(refunds).toEqual([80]);
  });

  it('refuses a state whose step no longer runs an agent, or a missing decision', async () => {
    const paused = await runWorkflow(claims(fakeLLM(beforePause)), null);
    const other = workflow({
      name: 'claims',
      steps: [
        { name: 'lookup', tool: fakeTool('lookup', { input: z.unknown(), respond: () => 1 }) },
        { name: 'audit', tool: fakeTool('audit', { input: z.unknown(), respond: () => 1 }) },
        { name: 'settle', tool: fakeTool('settle', { input: z.unknown(), respond: () => 1 }) },
      ],
    });
    await expect(
      resumeWorkflow(other, paused.state!, { decisions: [{ callId: 'r1', decision: 'approve' }] }),
    ).rejects.toThrow(/no longer runs an agent/);
    await expect(
      resumeWorkflow(claims(fakeLLM([])), paused.state!, { decisions: [] }),
    ).rejects.toThrow(ConfigurationError);
  });

  it('an item of a for_each agent step cannot wait: the step fails saying what to do', async () => {
    const result = await runWorkflow(claims(fakeLLM(beforePause), { forEach: true }), {
      claims: [{ order: 42 }],
    });
    expect(result.stopReason).toBe('workflow_step_failed');
    expect(result.steps.find(step => step.name === 'settle')?.error).toMatchObject({
      type: 'awaiting_approval',
      message: expect.stringContaining('run the agent without for_each') as string,
    });
  });
});
