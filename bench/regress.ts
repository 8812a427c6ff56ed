/**
 * `agent-trace regress` against the floor it builds on: a library of recorded runs of 20 steps,
 * every run rerun against unchanged code by `regress` (selection from the DuckDB index, each
 * file read once, scored, no model call) and by a plain loop of `rerunTrace` over the same files.
 * Interleaved rounds; also the peak RSS of a regress, which holds the files in use, not the
 * library.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { regress } from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, readTrace, recordedRuns, rerunTrace } from '@agent-trace/trace';
import { findTraceFiles } from '@agent-trace/trace/library';
import { interleaved, ratio } from './measure.js';
import { adderAgent, addScript } from './scenario.js';

/** What the regress cell measured. */
export interface RegressCellResult {
  readonly runs: number;
  readonly steps: number;
  /** ms for every run: the plain rerun loop, and regress one and four at a time. */
  readonly plainMs: number;
  readonly regressMs: number;
  readonly regressConcurrentMs: number;
  /** Peak RSS while regressing, MB. */
  readonly peakRssMb: number;
  readonly modelCalls: number;
}

/** Records `runs` runs of `steps` steps, ten to a file. */
async function recordLibrary(folder: string, runs: number, steps: number): Promise<void> {
  for (let start = 0; start < runs; start += 10) {
    const sink = jsonlSink(join(folder, `runs-${String(start / 10).padStart(4, '0')}.jsonl`));
    for (let index = start; index < Math.min(runs, start + 10); index++)
      await run(adderAgent(fakeLLM(addScript(steps)), steps), 'go', { trace: sink });
    await sink.close();
  }
}

export async function measureRegress(
  runs = 1000,
  steps = 20,
  rounds = 3,
): Promise<RegressCellResult> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-bench-regress-'));
  try {
    await recordLibrary(folder, runs, steps);
    const today = adderAgent(fakeLLM([], { allowUnusedSteps: true }), steps);
    let modelCalls = 0;
    let peak = 0;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const times = await interleaved(
      {
        plain: async () => {
          for (const file of findTraceFiles(folder)) {
            const events = [];
            for await (const event of readTrace(file.absolute)) events.push(event);
            for (const runId of recordedRuns(events)) await rerunTrace(events, today, { runId });
          }
        },
        regress: async () => {
          modelCalls += (await regress({ library: folder, agent: today, concurrency: 1 }))
            .modelCalls;
        },
        regressConcurrent: async () => {
          modelCalls += (await regress({ library: folder, agent: today })).modelCalls;
        },
      },
      rounds,
    );
    clearInterval(sample);
    return {
      runs,
      steps,
      plainMs: times.plain,
      regressMs: times.regress,
      regressConcurrentMs: times.regressConcurrent,
      peakRssMb: peak / 2 ** 20,
      modelCalls,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The benchmark's table. */
export function formatRegress(result: RegressCellResult): string {
  const row = (name: string, ms: number) =>
    `${name.padEnd(40)}${(ms / 1000).toFixed(2).padStart(8)} s${ratio(ms / result.plainMs).padStart(10)}`;
  return [
    `${'way'.padEnd(40)}${'time'.padStart(10)}${'/ plain'.padStart(10)}`,
    row('plain loop of rerunTrace over the files', result.plainMs),
    row('regress, one run at a time', result.regressMs),
    row('regress, four at once (the default)', result.regressConcurrentMs),
    `peak RSS ${result.peakRssMb.toFixed(0)} MB · ${result.modelCalls} model calls`,
  ].join('\n');
}

if (process.argv[1]?.endsWith('regress.ts')) {
  const runs = Number(process.argv[2] ?? 1000);
  console.log(`Regress: ${runs} recorded runs of 20 steps, unchanged code (median of 3 rounds)`);
  console.log(formatRegress(await measureRegress(runs, 20, 3)));
}
