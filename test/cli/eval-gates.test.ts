// `eval` and `eval compare` as CI gates: a task that throws is an error, not a score of 0; a
// scorer under its threshold names the cases under it; a comparison of failed runs never passes.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExperimentSummary } from '@agent-trace/evals/experiments';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const throwing = 'test/fixtures/evals/refunds-throwing.eval.ts';
const careless = 'test/fixtures/evals/refunds-careless.eval.ts';
const withThreshold = 'test/fixtures/evals/refunds-careless-threshold.eval.ts';
const fresh = () => mkdtempSync(join(tmpdir(), 'agent-trace-eval-gates-'));
const evaluate = (store: string, file: string, ...more: string[]) =>
  cli(['eval', file, '--store', store, ...more], { AGENT_TRACE_BRANCH: 'main' });

describe('agent-trace eval as a gate', () => {
  it('exits 1 when tasks threw, naming each failed case and why', async () => {
    const { code, stdout, stderr } = await evaluate(fresh(), throwing);
    expect(stdout).toContain('eval refunds: 4 runs, 4 failed');
    expect(code).toBe(1);
    expect(stderr).toContain(
      "eval 'refunds': 4 of 4 runs failed: the task threw (a failed task is an error, not a score of 0).",
    );
    for (const id of [1, 2, 3, 4])
      expect(stderr).toMatch(new RegExp(`order-${id}#1: .*Cannot read properties of undefined`));
  });

  it('exits 0 with --allow-failed, still naming the failed runs', async () => {
    const { code, stderr } = await evaluate(fresh(), throwing, '--allow-failed');
    expect(code).toBe(0);
    expect(stderr).toContain("warning: eval 'refunds': 4 of 4 runs failed");
  });

  it("exits 1 when a scorer's mean is under the threshold of defineEval, naming the cases under it", async () => {
    const { code, stderr } = await evaluate(fresh(), withThreshold);
    expect(code).toBe(1);
    expect(stderr).toContain("scorer 'trajectory' of eval 'refunds': mean 0.75, under 0.9.");
    expect(stderr).toMatch(/order-2#1: 0 \(step 1: refund/);
    expect(stderr).not.toContain('order-1#1');
  });

  it('takes the threshold from the command line, over the definition’s', async () => {
    const strict = await evaluate(fresh(), careless, '--threshold', 'trajectory=1');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("scorer 'trajectory' of eval 'refunds': mean 0.75, under 1.");
    const lenient = await evaluate(fresh(), withThreshold, '--threshold', '0.5');
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toBe('');
    const bad = await evaluate(fresh(), careless, '--threshold', 'judge=2');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('expected a mean from 0 to 1');
  });
});

describe('agent-trace eval compare of failed runs', () => {
  it('never passes a candidate whose tasks threw, even against a baseline that failed the same', async () => {
    const store = fresh();
    await evaluate(store, throwing, '--allow-failed');
    await evaluate(store, throwing, '--allow-failed');
    const [candidate, baseline] = JSON.parse(
      (await cli(['eval', 'list', '--store', store, '--json'])).stdout,
    ) as ExperimentSummary[];
    const markdown = join(store, 'summary.md');
    const compared = await cli([
      'eval',
      'compare',
      baseline!.id,
      candidate!.id,
      '--store',
      store,
      '--fail-on-regression',
      '--markdown',
      markdown,
    ]);
    expect(compared.code).toBe(1);
    expect(compared.stdout).toContain(
      'failed in the candidate: 4 runs whose task threw (never a pass)',
    );
    expect(compared.stdout).toContain('failed in the baseline: 4 runs whose task threw');
    expect(readFileSync(markdown, 'utf8')).toMatch(/^## ❌ Tasks failed\n/);
    expect(readFileSync(markdown, 'utf8')).not.toContain('No eval regressed');
  });
});
