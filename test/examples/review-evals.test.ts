import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadCases, runEval } from '@agent-trace/evals';
import { ExperimentStore } from '@agent-trace/evals/experiments';
import { readTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { drafts, reviewEval } from '../../examples/evals/review-eval.js';
import { reviewPrompt } from '../../examples/evals/prompts.js';
import { cli } from '../support/cli.js';
import { normalizeEvents } from '../support/normalize-events.js';

const exec = promisify(execFile);

async function eventsOf(file: string) {
  const events = [];
  for await (const event of readTrace(file)) events.push(event);
  return normalizeEvents(events);
}

describe('the document-review eval (examples/evals)', () => {
  it('has at least 20 cases, each with a trajectory and what to mention', async () => {
    const cases = await loadCases(drafts);
    expect(cases.length).toBeGreaterThanOrEqual(20);
    for (const each of cases)
      expect(each.expected).toMatchObject({
        trajectory: expect.any(Array),
        mentions: expect.any(Array),
      });
  });

  it('catches the planted prompt regression: compare names the drafts that lost their references and fails the gate', async () => {
    const store = mkdtempSync(join(tmpdir(), 'agent-trace-review-evals-'));
    const baseline = await cli(['eval', 'examples/evals/review.eval.ts', '--store', store], {
      AGENT_TRACE_BRANCH: 'main',
    });
    expect(baseline.code).toBe(0);
    expect(baseline.stdout).toContain('eval document-review: 24 runs');
    expect(baseline.stdout).toContain(
      'trajectory 1.000  mentions 1.000  errors 1.000  judge 1.000',
    );
    // The desk's stand-in model is priced, and so is the judge (gpt-4o-mini, from its cassette).
    expect(baseline.stdout).toMatch(
      /cost \$0\.00\d\d · [\d,]+ tokens · gpt-4o-mini, instructed-reviewer/,
    );
    await cli(['eval', 'examples/evals/review-hasty.eval.ts', '--store', store], {
      AGENT_TRACE_BRANCH: 'hasty-prompt',
    });
    const compared = await cli(['eval', 'compare', '--store', store, '--fail-on-regression']);
    expect(compared.code).toBe(1);
    expect(compared.stdout).toContain(
      'regressed draft-01: 1 → 0.5 (step 2: nothing where the reference has find_references({"topic":"tracing"}))',
    );
    expect(compared.stdout).toContain(
      'regressed draft-03: 1 → 0 (The review leaves out W3C Trace Context (2021).)',
    );
    // Drafts with no topic did not move.
    expect(compared.stdout).not.toContain('regressed draft-17');
    const [candidate, base] = await new ExperimentStore({ root: store }).list();
    expect(candidate?.configHash).not.toBe(base?.configHash);
    expect(candidate?.datasetHash).toBe(base?.datasetHash);
  });

  it('reproduces exactly: the same scores and the same normalised traces, run after run', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-review-repro-'));
    const first = await runEval(reviewEval(reviewPrompt), { traceDir: join(folder, 'a') });
    const second = await runEval(reviewEval(reviewPrompt), { traceDir: join(folder, 'b') });
    expect(second.cases.map(each => each.scores)).toEqual(first.cases.map(each => each.scores));
    for (const [index, each] of first.cases.entries())
      expect(await eventsOf(second.cases[index]!.traceFile!)).toEqual(
        await eventsOf(each.traceFile!),
      );
  });

  it('tells the story end to end: examples/evals/main.ts exits 1 on the regression and writes the page', async () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-trace-review-story-'));
    const story = exec(process.execPath, ['--import', 'tsx', 'examples/evals/main.ts', root]);
    const failed = await story.then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toContain('## ❌ Evals regressed');
    expect(failed?.stdout).toContain(`The experiments page: ${join(root, 'experiment.html')}`);
  });
});
