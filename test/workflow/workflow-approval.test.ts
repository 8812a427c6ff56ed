/**
 * Approval steps: a workflow pauses at them (the run ends `interrupted` with a state), and goes
 * on from the state with a person's decision, in this process or another, as one run.
 */
import { fileURLToPath } from 'node:url';
import { ConfigurationError, sequentialIds, steppingClock } from '@agent-trace/core';
import { type ApprovalDecision } from '@agent-trace/core/approval';
import { resumeWorkflow, runWorkflow, workflow } from '@agent-trace/core/workflow';
import { compareGoldenTrace, fakeTool } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const directory = fileURLToPath(new URL('../../golden', import.meta.url));

/** A release: draft notes, ask a person, publish; a changelog runs beside, needing no approval. */
function release() {
  return workflow({
    name: 'release',
    steps: [
      { name: 'draft', tool: fakeTool('draft', { input: z.unknown(), respond: () => 'v2 notes' }) },
      { name: 'sign-off', approval: 'Publish these notes?', dependsOn: ['draft'] },
      {
        name: 'publish',
        tool: fakeTool('publish', {
          input: z.unknown(),
          respond: value => ({ published: value }),
        }),
        dependsOn: ['draft', 'sign-off'],
        input: { notes: '${steps.draft.output}', by: '${steps["sign-off"].output.by}' },
      },
      {
        name: 'changelog',
        tool: fakeTool('changelog', { input: z.unknown(), respond: () => 'logged' }),
      },
    ],
  });
}

/** A decision on the sign-off step, without its call id. */
type SignOff = ApprovalDecision extends infer Decision
  ? Decision extends ApprovalDecision
    ? Omit<Decision, 'callId'>
    : never
  : never;

async function pauseAndResume(decision: SignOff) {
  const sink = memorySink();
  const deterministic = { clock: steppingClock(), ids: sequentialIds(), trace: sink };
  const paused = await runWorkflow(release(), { version: 2 }, deterministic);
  // Stored and read back, as another process would.
  const stored = JSON.stringify(paused.state);
  const resumed = await resumeWorkflow(release(), stored, {
    ...deterministic,
    decisions: [{ callId: 'sign-off', ...decision }],
  });
  expect(validateTrace(sink.events).problems).toEqual([]);
  return { paused, resumed, events: sink.events };
}

describe('approval steps', () => {
  it('pause the workflow: steps behind them wait, independent ones run', async () => {
    const paused = await runWorkflow(release(), { version: 2 });
    expect(paused.stopReason).toBe('interrupted');
    expect(paused.status).toBe('interrupted');
    expect(paused.interruptions).toEqual([
      {
        callId: 'sign-off',
        toolName: 'sign-off',
        kind: 'workflow_step',
        agent: 'release',
        args: { prompt: 'Publish these notes?', input: 'v2 notes' },
      },
    ]);
    expect(paused.steps.map(step => [step.name, step.status])).toEqual([
      ['draft', 'completed'],
      ['sign-off', 'interrupted'],
      ['changelog', 'completed'],
    ]);
    expect(paused.state?.format).toBe('agent-trace/workflow-state');
  });

  it('go on when approved, as one run in one valid trace', async () => {
    const { resumed, events } = await pauseAndResume({ decision: 'approve', by: 'ana' });
    expect(resumed.stopReason).toBe('completed');
    expect(resumed.output).toEqual({
      publish: { published: { notes: 'v2 notes', by: 'ana' } },
      changelog: 'logged',
    });
    expect(resumed.steps.map(step => [step.name, step.status])).toEqual([
      ['draft', 'completed'],
      ['sign-off', 'completed'],
      ['publish', 'completed'],
      ['changelog', 'completed'],
    ]);
    // Steps that ended before the pause did not run again.
    expect(events.filter(event => event.event === 'tool_start')).toHaveLength(3);
    expect(new Set(events.map(event => event.run)).size).toBe(1);
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('workflow-approval', events, { directory }),
    );
  });

  it('fail the step when rejected, skipping what needed it', async () => {
    const { resumed } = await pauseAndResume({
      decision: 'reject',
      by: 'ana',
      reason: 'typos in the notes',
    });
    expect(resumed.stopReason).toBe('workflow_step_failed');
    expect(resumed.detail).toBe(
      "step 'sign-off' failed: ana rejected step 'sign-off': typos in the notes",
    );
    expect(resumed.steps.find(step => step.name === 'publish')?.status).toBe('skipped');
  });

  it('complete with the edited value as the output', async () => {
    const { resumed } = await pauseAndResume({ decision: 'edit', args: 'v2.1', by: 'bo' });
    expect(resumed.steps.find(step => step.name === 'sign-off')?.output).toEqual({
      approved: true,
      by: 'bo',
      value: 'v2.1',
    });
  });

  it('refuse a state that was changed, that another workflow made, or that lacks a decision', async () => {
    const paused = await runWorkflow(release(), { version: 2 });
    const state = paused.state!;
    const approve = { decisions: [{ callId: 'sign-off', decision: 'approve' as const }] };
    const changed = { ...state, records: [] };
    await expect(resumeWorkflow(release(), changed, approve)).rejects.toThrow(
      'The workflow state was changed after it was made',
    );
    const other = workflow({ name: 'other', steps: [{ name: 'x', approval: 'ok?' }] });
    await expect(resumeWorkflow(other, state, approve)).rejects.toThrow(
      "The state was made by workflow 'release', not 'other'",
    );
    await expect(resumeWorkflow(release(), state, { decisions: [] })).rejects.toThrow(
      ConfigurationError,
    );
    await expect(resumeWorkflow(release(), state, { decisions: [] })).rejects.toThrow(
      "No decision for 'sign-off'",
    );
  });

  it('go on after a long chain ended before the pause, its steps not run again', async () => {
    // The steps that ended before the pause hand on to the ones after them without running again.
    let calls = 0;
    const next = fakeTool('next', {
      input: z.unknown(),
      respond: () => ++calls,
    });
    const length = 1000;
    const long = () =>
      workflow({
        name: 'long',
        steps: [
          ...Array.from({ length }, (_, index) => ({
            name: `s${index}`,
            tool: next,
            dependsOn: index === 0 ? [] : [`s${index - 1}`],
          })),
          { name: 'sign-off', approval: 'Ship it?', dependsOn: [`s${length - 1}`] },
          { name: 'after', tool: next, dependsOn: ['sign-off'] },
        ],
      });
    const paused = await runWorkflow(long(), null);
    expect([paused.status, calls]).toEqual(['interrupted', length]);
    const resumed = await resumeWorkflow(long(), JSON.stringify(paused.state), {
      decisions: [{ callId: 'sign-off', decision: 'approve' }],
    });
    expect([resumed.status, calls, resumed.output]).toEqual(['completed', length + 1, length + 1]);
  });
});
