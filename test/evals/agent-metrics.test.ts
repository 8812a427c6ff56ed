/**
 * Agent metrics that need no judge, each on real runs of small agents (a loop, a handoff cycle, a
 * tool that fails then works, repeated calls), and the two judge scorers, replayed from a
 * cassette with no model call.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, steppingClock, tool, type AnyAgent, type TraceEvent } from '@agent-trace/core';
import {
  costPerSuccessfulRun,
  goalSuccessRubric,
  noLoops,
  repeatedToolCalls,
  runEval,
  stepEfficiency,
  timeToFirstTokenAtMost,
  toolArgumentRubric,
  toolErrorRate,
  toolRecovery,
  type EvalResult,
  type Scorer,
} from '@agent-trace/evals';
import { fakeLLM, withCassette } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { deskMetricsEval } from '../../examples/metrics/desk-metrics.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** The trace of a run of an agent answering with `script`, its tools given. */
async function traceOf(
  script: Parameters<typeof fakeLLM>[0],
  tools: Parameters<typeof agent>[0]['tools'] = [],
): Promise<TraceEvent[]> {
  const sink = memorySink();
  await run(
    agent({ name: 'desk', model: fakeLLM(script, { allowUnusedSteps: true }), tools }),
    'Find it',
    {
      trace: sink,
      clock: steppingClock(),
    },
  );
  return [...sink.events];
}

const echo = (name: string) =>
  tool({
    name,
    description: name,
    input: z.object({ q: z.string() }),
    execute: ({ q }) => `${name}: ${q}`,
  });

async function scored(scorer: Scorer, trace: TraceEvent[], expected?: unknown) {
  return scorer.score({ case: { input: 'Find it', expected }, output: '', trace, durationMs: 0 });
}

describe('judge-free agent metrics', () => {
  it('finds loops of steps and of handoffs, and repeated calls', async () => {
    const looping = await traceOf(
      [
        { toolCalls: [{ name: 'search', args: { q: 'a' } }] },
        { toolCalls: [{ name: 'fetch', args: { q: 'a' } }] },
        { toolCalls: [{ name: 'search', args: { q: 'a' } }] },
        { toolCalls: [{ name: 'fetch', args: { q: 'b' } }] },
        { text: 'done' },
      ],
      [echo('search'), echo('fetch')],
    );
    expect(await scored(noLoops(), looping)).toEqual({
      score: 0,
      reason: '2 times in a row: tool search → tool fetch',
    });
    expect(await scored(repeatedToolCalls(), looping)).toEqual({
      score: 0.75,
      reason: '1 of 4 calls repeat an earlier one, first search {"q":"a"} (time 2)',
    });
    const straight = await traceOf(
      [
        { toolCalls: [{ name: 'search', args: { q: 'a' } }] },
        { toolCalls: [{ name: 'fetch', args: { q: 'a' } }] },
        { text: 'done' },
      ],
      [echo('search'), echo('fetch')],
    );
    expect((await scored(noLoops(), straight)).score).toBe(1);
    expect((await scored(repeatedToolCalls(), straight)).score).toBe(1);

    const billing: AnyAgent = agent({
      name: 'billing',
      model: fakeLLM([{ toolCalls: [{ name: 'transfer_to_triage' }] }], { allowUnusedSteps: true }),
      handoffs: [() => triage],
    });
    const triage: AnyAgent = agent({
      name: 'triage',
      model: fakeLLM(
        [{ toolCalls: [{ name: 'transfer_to_billing' }] }, { text: 'Back with me.' }],
        {
          allowUnusedSteps: true,
        },
      ),
      handoffs: [billing],
    });
    const sink = memorySink();
    await run(triage, 'Refund', { trace: sink, clock: steppingClock() });
    expect(await scored(noLoops(), [...sink.events])).toEqual({
      score: 0,
      reason: 'control came back: triage → billing → triage',
    });
  });

  it('counts tool errors and the recovery after them', async () => {
    let calls = 0;
    const flaky = tool({
      name: 'lookup',
      description: 'lookup',
      input: z.object({ q: z.string() }),
      execute: () => {
        calls++;
        if (calls === 1) throw new Error('timeout');
        return 'found';
      },
    });
    const trace = await traceOf(
      [
        { toolCalls: [{ name: 'lookup', args: { q: 'a' } }] },
        { toolCalls: [{ name: 'lookup', args: { q: 'a' } }] },
        { text: 'found it' },
      ],
      [flaky],
    );
    // The run retried the failed call at once (an attempt of its own), then the model called again.
    expect(await scored(toolErrorRate(), trace)).toEqual({
      score: 0.667,
      reason: '1 of 3 tool calls failed',
    });
    expect(await scored(toolRecovery(), trace)).toEqual({
      score: 1,
      reason: '1 of 1 failed calls recovered',
    });
    calls = -10;
    const lost = await traceOf(
      [{ toolCalls: [{ name: 'lookup', args: { q: 'a' } }] }, { text: 'gave up' }],
      [
        tool({
          name: 'lookup',
          description: 'lookup',
          input: z.object({ q: z.string() }),
          execute: () => {
            throw new Error('down');
          },
        }),
      ],
    );
    expect(await scored(toolRecovery(), lost)).toEqual({
      score: 0,
      reason: '0 of 3 failed calls recovered',
    });
  });

  it('weighs steps against the shortest recorded path, and the time to the first token', async () => {
    const trace = await traceOf(
      [
        { toolCalls: [{ name: 'search', args: { q: 'a' } }] },
        { toolCalls: [{ name: 'search', args: { q: 'b' } }] },
        { toolCalls: [{ name: 'search', args: { q: 'c' } }] },
        { toolCalls: [{ name: 'search', args: { q: 'd' } }] },
        { text: 'done' },
      ],
      [echo('search')],
    );
    expect(
      await scored(stepEfficiency(), trace, {
        trajectory: [{ tool: 'search' }, { tool: 'search' }],
      }),
    ).toEqual({
      score: 0.5,
      reason: '4 steps; the shortest recorded path takes 2',
    });
    expect((await scored(stepEfficiency({ reference: 4 }), trace)).score).toBe(1);
    await expect(scored(stepEfficiency(), trace)).rejects.toThrow(/has no reference/);
    const first = await scored(timeToFirstTokenAtMost(60_000), trace);
    expect(first.score).toBe(1);
    expect(first.reason).toMatch(/^\d+ ms to the whole answer \(not streamed\); 60000 allowed$/);
    const llmEnd = trace.find(event => event.event === 'llm_end')!;
    const ms = Date.parse(llmEnd.time) - Date.parse(trace[0]!.time);
    expect((await scored(timeToFirstTokenAtMost(ms / 2), trace)).score).toBe(0.5);
  });

  it('gives the cost per successful run', () => {
    const usage = (costUsd: number) => ({
      tokensIn: 0,
      tokensOut: 0,
      costUsd,
      unpricedCalls: 0,
      models: [],
    });
    const result = {
      name: 'desk',
      means: {},
      cases: [
        {
          id: 'a',
          index: 0,
          trial: 1,
          input: '',
          output: '',
          scores: { exact: { score: 1, reason: '' } },
          durationMs: 1,
          usage: usage(0.02),
        },
        {
          id: 'b',
          index: 1,
          trial: 1,
          input: '',
          output: '',
          scores: { exact: { score: 0, reason: '' } },
          durationMs: 1,
          usage: usage(0.03),
        },
        {
          id: 'c',
          index: 2,
          trial: 1,
          input: '',
          output: '',
          scores: { exact: { score: 1, reason: '' } },
          durationMs: 1,
          usage: usage(0.01),
        },
      ],
    } satisfies EvalResult;
    const cost = costPerSuccessfulRun(result);
    expect(cost).toMatchObject({ runs: 3, successes: 2, unpricedCalls: 0 });
    expect(cost.costUsd).toBeCloseTo(0.06, 10);
    expect(cost.perSuccessUsd).toBeCloseTo(0.03, 10);
  });
});

describe('the judge scorers (examples/metrics/desk-metrics.ts)', () => {
  it('judge the goal and the tool arguments from the steps, replayable from a cassette', async () => {
    const cassettePath = join(mkdtempSync(join(tmpdir(), 'judges-')), 'judges.cassette.jsonl');
    const verdicts = fakeLLM([
      { text: '{"score":0,"reason":"it looked the order up but never refunded it"}' },
      { text: '{"score":1,"reason":"all arguments come from the request"}' },
    ]);
    const recorded = await runEval(
      deskMetricsEval(withCassette(verdicts, cassettePath, { mode: 'record' })),
    );
    expect(recorded.cases[0]!.scores).toEqual({
      step_efficiency: { score: 1, reason: '1 steps; the shortest recorded path takes 2' },
      repeated_tool_calls: { score: 1, reason: 'no repeated call of 1' },
      loops: { score: 1, reason: 'no loop' },
      tool_errors: { score: 1, reason: '0 of 1 tool calls failed' },
      tool_recovery: { score: 1, reason: 'no tool call failed' },
      goal_success: { score: 0, reason: 'it looked the order up but never refunded it' },
      tool_arguments: { score: 1, reason: 'all arguments come from the request' },
    });
    expect(verdicts.calls[0]!.instructions).toBe(goalSuccessRubric);
    expect(verdicts.calls[0]!.messages.at(-1)?.content).toBe(
      'Request: Refund order A-1\nSteps:\n1. lookup({"order":"A-1"}) → {"order":"A-1","status":"broken"}\nAnswer: Refunded.',
    );
    expect(verdicts.calls[1]!.instructions).toBe(toolArgumentRubric);
    const silent = fakeLLM([]);
    const replayed = await runEval(
      deskMetricsEval(withCassette(silent, cassettePath, { mode: 'replay' })),
    );
    expect(replayed.cases[0]!.scores).toEqual(recorded.cases[0]!.scores);
    expect(silent.calls).toHaveLength(0);
  });
});
