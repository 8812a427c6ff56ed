/**
 * Planned runs rerun and fork: the planner answers from its recorded calls, so it writes the
 * recorded plans, which run as today's tools define them.
 */
import { agent, sequentialIds, steppingClock } from '@agent-trace/core';
import { planAndRun } from '@agent-trace/core/workflow';
import { fakeLLM } from '@agent-trace/testing';
import { forkTrace, memorySink, rerunTrace, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { firstPlan, secondPlan, tools } from './sales-plans.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const request = 'Summarise the sales of week 47';
/** Today's planner: its answers come from the recording, so its own script is never read. */
const planner = (instructions = 'You plan work.') =>
  agent({ name: 'planner', model: fakeLLM([]), instructions });

/** The recorded run: the first plan fails at fetch, the planner re-plans, the second completes. */
async function recorded() {
  const sink = memorySink();
  await planAndRun(
    agent({
      name: 'planner',
      model: fakeLLM([{ text: firstPlan }, { text: secondPlan }]),
      instructions: 'You plan work.',
    }),
    request,
    { tools: tools(), trace: sink, clock: steppingClock(), ids: sequentialIds() },
  );
  return sink.events;
}

describe('a planned run, rerun', () => {
  it('does what the recording did: the same two plans, the same steps, no divergence', async () => {
    const report = await rerunTrace(await recorded(), { planner: planner(), tools: tools() });
    expect(report.differences).toEqual([]);
    expect(report.same).toBe(true);
    expect(report.result.stopReason).toBe('completed');
    expect(report.result.plans.map(plan => [plan.revision, plan.reason, plan.status])).toEqual([
      [1, 'request', 'failed'],
      [2, 'step_failed', 'completed'],
    ]);
    expect(validateTrace(report.rerun).problems).toEqual([]);
  });

  it("names where today's planner differs: its instructions changed what it is asked", async () => {
    const report = await rerunTrace(await recorded(), {
      planner: planner('You plan work carefully.'),
      tools: tools(),
    });
    expect(report.same).toBe(false);
    expect(report.firstDivergence).toMatchObject({ agent: 'planner' });
  });
});

describe('a planned run, forked', () => {
  it('gives the planner another first answer: the backup plan at once, one plan in all', async () => {
    const report = await forkTrace(
      await recorded(),
      { planner: planner(), tools: tools() },
      { afterStep: 0, model: fakeLLM([{ text: secondPlan }]) },
    );
    expect(report.result.stopReason).toBe('completed');
    expect(report.result.output).toBe('Week 47: 1200 in sales.');
    expect(report.result.plans).toHaveLength(1);
    expect(report.events[0]).toMatchObject({ event: 'run_start', forked_from: { after_step: 0 } });
    expect(validateTrace(report.events).problems).toEqual([]);
  });

  it('rebuilds the first plan and its failure, then answers the re-plan from the new model', async () => {
    const report = await forkTrace(
      await recorded(),
      { planner: planner(), tools: tools() },
      { afterStep: 1, model: fakeLLM([{ text: secondPlan }]) },
    );
    expect(report.reproduced).toBe(true);
    expect(report.result.plans.map(plan => plan.status)).toEqual(['failed', 'completed']);
  });
});

describe('agent-trace rerun of a planned run', () => {
  it('takes a module that exports { planner, tools }', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-plan-rerun-'));
    const trace = join(folder, 'plan.jsonl');
    writeFileSync(trace, `${(await recorded()).map(event => JSON.stringify(event)).join('\n')}\n`);
    const { code, stdout, stderr } = await cli([
      'rerun',
      trace,
      '--agent',
      'test/fixtures/agents/planned-sales.ts',
    ]);
    expect(stderr).toBe('');
    expect(stdout).toContain('same');
    expect(code).toBe(0);
  });
});
