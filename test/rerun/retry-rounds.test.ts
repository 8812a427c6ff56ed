/**
 * One answer's tool calls are compared round by round, as the loop runs them: a raised quota
 * that runs a call the recording refused diverges at that call, before the retries its failure
 * changed (which a breaker then refuses). Found by the program generator.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDivergence, rerunTrace } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { buildProgram, rerunBuild } from '../conformance/generator/build-program.js';
import { recordProgram } from '../conformance/generator/check-program.js';
import { programRunOptions } from '../conformance/generator/program-options.js';
import { program } from '../conformance/found/quota-refusal-before-retries-of-parallel-calls.js';

it('a changed call of the first round shows before the retries it changed', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-rounds-')), 'run.jsonl');
  await recordProgram(program, file);
  const report = await rerunTrace(file, buildProgram(program, rerunBuild(program, file)), {
    run: programRunOptions(program, 'feature option'),
  });
  const first = report.firstDivergence;
  expect(first && formatDivergence(first)).toMatch(
    /expected: tool 'billing_t0' fails: refused by feature 'tool-quota'[\s\S]*actual: {3}tool 'billing_t0' fails: execution_failed/,
  );
});
