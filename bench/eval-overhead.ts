/**
 * What the eval runner adds to a case: the same agent run over the same cases by a plain loop
 * (each run with a memory sink, as a case's is) and by `runEval` with two scorers, one case at a
 * time and four at once; and with files, a plain loop writing a JSONL trace per run against
 * `runExperiment` (the same files, the journal and the DuckDB index). Interleaved rounds; the
 * runner's share is the ratio.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, tool } from '@agent-trace/core';
import { runExperiment } from '@agent-trace/evals/experiments';
import { defineEval, exactMatch, runEval, trajectoryMatch } from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink } from '@agent-trace/trace';
import { z } from 'zod';
import { interleaved, ratio } from './measure.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** An agent that adds 2 and 3 with the tool, then answers. */
const adder = () =>
  agent({
    name: 'adder',
    model: fakeLLM([{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: '5' }]),
    tools: [add],
  });

/** µs per case: a plain loop of runs, and the eval runner one and four at a time. */
export interface EvalOverheadResult {
  readonly cases: number;
  readonly plain: number;
  readonly runner: number;
  readonly runnerConcurrent: number;
  /** A plain loop whose runs each write a JSONL trace file, as an experiment's cases do. */
  readonly plainFiles: number;
  /** `runExperiment`, four at once: the journal, a trace file per case, the DuckDB index. */
  readonly experiment: number;
}

export async function measureEvalOverhead(cases = 200, rounds = 5): Promise<EvalOverheadResult> {
  const data = Array.from({ length: cases }, () => ({
    input: '2 + 3?',
    expected: { output: '5', trajectory: [{ tool: 'add', args: { a: 2, b: 3 } }] },
  }));
  const adding = (concurrency: number) =>
    defineEval({
      name: 'adding',
      data,
      task: (input: unknown, { runOptions }) => run(adder(), String(input), runOptions),
      scorers: [trajectoryMatch(), exactMatch()],
      concurrency,
    });
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-bench-evals-'));
  let files = 0;
  const times = await interleaved(
    {
      plain: async () => {
        for (const { input } of data) await run(adder(), input, { trace: memorySink() });
      },
      runner: () => runEval(adding(1)),
      runnerConcurrent: () => runEval(adding(4)),
      plainFiles: async () => {
        const sinks = [];
        for (const { input } of data) {
          const file = jsonlSink(join(folder, 'plain', `${files++}.jsonl`));
          sinks.push(file);
          await run(adder(), input, { trace: [memorySink(), file] });
        }
        await Promise.all(sinks.map(sink => sink.close()));
      },
      experiment: () => runExperiment(adding(4), { root: join(folder, 'store') }),
    },
    rounds,
  );
  rmSync(folder, { recursive: true, force: true });
  const per = (ms: number) => (ms * 1000) / cases;
  return {
    cases,
    plain: per(times.plain),
    runner: per(times.runner),
    runnerConcurrent: per(times.runnerConcurrent),
    plainFiles: per(times.plainFiles),
    experiment: per(times.experiment),
  };
}

/** The benchmark's table. */
export function formatEvalOverhead(result: EvalOverheadResult): string {
  return [
    `${'way'.padEnd(34)}${'µs a case'.padStart(10)}${'/ plain'.padStart(10)}`,
    `${'plain loop of runs (memory sink)'.padEnd(34)}${result.plain.toFixed(1).padStart(10)}${'1.00×'.padStart(10)}`,
    `${'runEval, one case at a time'.padEnd(34)}${result.runner.toFixed(1).padStart(10)}${ratio(result.runner / result.plain).padStart(10)}`,
    `${'runEval, four at once'.padEnd(34)}${result.runnerConcurrent.toFixed(1).padStart(10)}${ratio(result.runnerConcurrent / result.plain).padStart(10)}`,
    '',
    `${'with files'.padEnd(34)}${'µs a case'.padStart(10)}${'/ files'.padStart(10)}`,
    `${'plain loop, a JSONL trace per run'.padEnd(34)}${result.plainFiles.toFixed(1).padStart(10)}${'1.00×'.padStart(10)}`,
    `${'runExperiment, four at once'.padEnd(34)}${result.experiment.toFixed(1).padStart(10)}${ratio(result.experiment / result.plainFiles).padStart(10)}`,
  ].join('\n');
}
