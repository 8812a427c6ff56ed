/**
 * The walkthrough of docs/guide/production-to-tests.md, step by step: a desk with a bug in
 * production, its runs scored online; customers mark the late-order answers down (from the app's
 * code and the CLI); the marked runs become a dataset; a person corrects the expected answers; the
 * eval fails the buggy desk, naming the runs, and passes the fixed one; regress reruns exactly the
 * marked runs against the fix and names where each changed.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { belowThreshold, readDataset, runEval } from '@agent-trace/evals';
import { readTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { deskEval } from '../../examples/production-loop/desk-eval.js';
import { production, thumbsDown } from '../../examples/production-loop/production.js';
import { cli } from '../support/cli.js';

const marked = 'run IN (SELECT run FROM feedback WHERE score < 0)';

describe('from a bad run in production to a test that keeps it fixed', () => {
  it('goes from thumbs down to a dataset, an eval that fails then passes, and a regress', async () => {
    const work = mkdtempSync(join(tmpdir(), 'production-loop-'));
    const traces = join(work, 'traces');
    mkdirSync(traces);
    const file = join(traces, 'desk.jsonl');
    // 1. Production: 20 customers; every run scored online, none found wanting.
    const runs = await production(file, 20);
    const evaluations = [];
    for await (const event of readTrace(file))
      if (event.event === 'evaluation') evaluations.push(event);
    expect(evaluations).toHaveLength(40);
    expect(evaluations.every(event => event.score === 1)).toBe(true);
    // 2. Customers of late orders press thumbs down: from the app, and one through the CLI.
    await thumbsDown(file, runs[4]!, 'customer-5');
    await thumbsDown(file, runs[9]!, 'customer-10');
    const given = await cli([
      'feedback',
      file,
      '--run',
      runs[14]!,
      '--score',
      '-1',
      '--comment',
      'Still not here.',
      '--by',
      'customer-15',
    ]);
    expect(given.code).toBe(0);
    // 3. The marked runs become cases.
    const dataset = join(work, 'evals', 'late-orders.jsonl');
    const added = await cli(['dataset', 'add', dataset, '--from', traces, '--where', marked]);
    expect(added.stdout).toContain('3 runs picked, 3 added, 0 already in it');
    const before = readDataset(dataset);
    expect(before.cases.map(each => each.id)).toEqual([runs[4], runs[9], runs[14]]);
    for (const each of before.cases)
      expect(each.metadata).toMatchObject({ source: { run: each.id, release: 'c0ffee1' } });
    // 4. A person corrects what the desk should have said.
    writeFileSync(
      dataset,
      readFileSync(dataset, 'utf8').replace(
        /"output":"Order (\d+) arrives tomorrow\."/g,
        '"output":"Order $1 is delayed: it arrives on Friday."',
      ),
    );
    const corrected = await cli(['dataset', 'diff', `${dataset}@${before.version}`, dataset]);
    expect(corrected.stdout).toContain('0 added, 0 removed, 3 changed, 0 the same');
    // 5. The eval fails the desk as it is, naming the runs; it passes the fix.
    const buggy = await runEval(deskEval(dataset, 'v1'));
    expect(buggy.means.exact).toBe(0);
    const said = belowThreshold(buggy, 'exact', 1)!;
    for (const id of [runs[4], runs[9], runs[14]]) expect(said).toContain(`from run ${id} (`);
    const fixed = await runEval(deskEval(dataset, 'v2'));
    expect(fixed.means).toEqual({ exact: 1, trajectory: 1 });
    // 6. Regress the marked runs against the fix: exactly those, each named where it changed.
    const regress = await cli([
      'regress',
      traces,
      '--agent',
      'examples/production-loop/fixed.ts',
      '--where',
      marked,
      '--no-store',
      '--json',
    ]);
    const report = JSON.parse(regress.stdout) as {
      cases: { run: string; status: string; divergence?: string }[];
    };
    expect(report.cases.map(each => each.run)).toEqual([runs[4], runs[9], runs[14]]);
    for (const each of report.cases) {
      expect(each.status).toBe('diverged');
      expect(each.divergence).toContain('a delayed order says so');
    }
  }, 60_000);
});
