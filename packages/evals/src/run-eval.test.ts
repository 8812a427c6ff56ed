import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run } from '@agent-trace/core';
import { costBudget } from '@agent-trace/core/cost';
import { fakeLLM } from '@agent-trace/testing';
import { validateTraceFile } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { refundCase, refundDesk } from '../../../test/fixtures/refund-desk.js';
import { defineEval } from './define-eval.js';
import { runEval } from './run-eval.js';
import { scorer } from './scorer.js';
import { exactMatch } from './scorers/output.js';
import { noErrors, stopReasonIs } from './scorers/run-facts.js';
import { trajectoryMatch } from './scorers/trajectory.js';

const data = [1, 2, 3, 4, 5, 6].map(refundCase);

const refunds = (careless: (id: number) => boolean = () => false) =>
  defineEval<{ order: number }>({
    name: 'refunds',
    data,
    task: ({ order: id }, { runOptions }) =>
      run(refundDesk(id, careless(id)), `Refund order ${id}`, runOptions),
    scorers: [trajectoryMatch(), exactMatch(), stopReasonIs('completed'), noErrors()],
  });

describe('runEval', () => {
  it('runs every case and scores its answer, its trajectory and its run', async () => {
    const result = await runEval(refunds());
    expect(result.cases.map(each => each.id)).toEqual(data.map(each => each.id));
    expect(result.means).toEqual({ trajectory: 1, exact: 1, stop_reason: 1, errors: 1 });
    expect(result.cases[0]?.scores.trajectory).toEqual({ score: 1, reason: 'the same 2 steps' });
  });

  it('names the cases a regression broke, and why', async () => {
    const result = await runEval(refunds(id => id % 2 === 0));
    const broken = result.cases.filter(each => (each.scores.trajectory?.score ?? 0) < 1);
    expect(broken.map(each => each.id)).toEqual(['order-2', 'order-4', 'order-6']);
    expect(broken[0]?.scores.trajectory?.reason).toBe(
      'step 1: refund({"order":2}) where the reference has lookup({"order":2})',
    );
    expect(result.means.trajectory).toBe(0.5); // a strict miss at the first step scores 0
    expect(result.means.exact).toBe(1);
  });

  it('runs trials in data order whatever the concurrency, and shards add up to the whole', async () => {
    const whole = await runEval(refunds(), { trials: 2, concurrency: 3 });
    expect(whole.cases.map(each => `${each.id}#${each.trial}`)).toEqual(
      data.flatMap(each => [`${each.id}#1`, `${each.id}#2`]),
    );
    const first = await runEval(refunds(), { trials: 2, shard: { index: 1, count: 2 } });
    const second = await runEval(refunds(), { trials: 2, shard: { index: 2, count: 2 } });
    const merged = [...first.cases, ...second.cases].map(({ id, trial, output, scores }) => ({
      id,
      trial,
      output,
      scores,
    }));
    const all = whole.cases.map(({ id, trial, output, scores }) => ({ id, trial, output, scores }));
    expect(merged.sort((a, b) => a.id.localeCompare(b.id) || a.trial - b.trial)).toEqual(
      [...all].sort((a, b) => a.id.localeCompare(b.id) || a.trial - b.trial),
    );
    expect(first.cases.map(each => each.id)).toEqual([
      'order-1',
      'order-1',
      'order-3',
      'order-3',
      'order-5',
      'order-5',
    ]);
  });

  it('keeps going when a task or a scorer fails, and says which', async () => {
    const result = await runEval(
      defineEval({
        name: 'failing',
        data: [{ input: 'boom' }, { input: 'fine' }],
        task: input => {
          if (input === 'boom') throw new Error('the service is down');
          return 'ok';
        },
        scorers: [
          exactMatch('ok'),
          scorer('picky', ({ output }) => {
            if (output === 'ok') throw new Error('cannot judge');
            return 1;
          }),
        ],
      }),
    );
    expect(result.cases.map(each => [each.error, each.scores.exact?.score])).toEqual([
      ['the service is down', 0],
      [undefined, 1],
    ]);
    expect(result.cases[1]?.scores.picky).toEqual({
      score: 0,
      reason: 'the scorer failed: cannot judge',
    });
  });

  it('runs an agent as the task and writes each case a valid trace', async () => {
    const traceDir = mkdtempSync(join(tmpdir(), 'agent-trace-evals-'));
    const result = await runEval(
      defineEval({
        name: 'echo desk',
        data: [{ id: 'hello', input: 'Hello' }],
        task: agent({ name: 'echo', model: fakeLLM([{ text: 'Hello to you.' }]) }),
        scorers: [exactMatch('Hello to you.')],
      }),
      { traceDir },
    );
    const [only] = result.cases;
    expect(only?.traceFile).toBe(join(traceDir, 'echo_desk', 'hello.t1.jsonl'));
    expect((await validateTraceFile(only?.traceFile as string)).valid).toBe(true);
  });

  it("prices every case's runs, and a budget in the definition holds across all its cases", async () => {
    const priced = {
      'fake:fake-model': {
        inputPerMillion: 1000,
        outputPerMillion: 1000,
        source: 'test',
        asOf: '2026-11-25',
      },
    };
    const answer = () =>
      agent({
        name: 'answerer',
        model: fakeLLM([{ text: 'ok', usage: { promptTokens: 100, completionTokens: 0 } }], {
          allowUnusedSteps: true,
        }),
      });
    // Each case costs $0.10; the budget pays for three.
    const result = await runEval(
      defineEval({
        name: 'budgeted',
        data: [1, 2, 3, 4, 5].map(n => ({ input: `question ${n}` })),
        task: (input, { runOptions }) => run(answer(), String(input), runOptions),
        scorers: [stopReasonIs('completed')],
        concurrency: 1,
        runOptions: { prices: priced, budget: costBudget({ name: 'eval', limitUsd: 0.3 }) },
      }),
    );
    expect(result.cases.map(each => each.usage.costUsd)).toEqual([0.1, 0.1, 0.1, 0, 0]);
    expect(result.cases.map(each => each.scores.stop_reason?.reason)).toEqual([
      'the run stopped: completed',
      'the run stopped: completed',
      'the run stopped: completed',
      'the run stopped: budget_exceeded',
      'the run stopped: budget_exceeded',
    ]);
  });

  it('refuses a definition it cannot run, saying what to fix', () => {
    expect(() =>
      defineEval({ name: 'x', data: [], task: () => 1, scorers: [exactMatch(1), exactMatch(2)] }),
    ).toThrow("defineEval: eval 'x' has two scorers named 'exact': give one a name of its own.");
  });
});
