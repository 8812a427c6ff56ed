/**
 * Online scoring on a live app's runs: 1,000 runs of a small desk (a tool call and an answer),
 * traced to JSONL, one after another, with and without `onlineScoring` scoring every run with
 * three judge-free scorers in the background, the two taking turns round by round. The scoring adds at most 5%
 * to the runs' wall time, and writes one evaluation event per run and scorer.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, tool, type LanguageModel } from '@agent-trace/core';
import { noLoops, onlineScoring, repeatedToolCalls, toolErrorRate } from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { z } from 'zod';
import { median } from './measure.js';

/** What the cell measured. */
export interface OnlineScoringResult {
  readonly runs: number;
  readonly rounds: number;
  /** How long the model took to answer each call (0: at once, the worst case for the scoring). */
  readonly latencyMs: number;
  /** Median milliseconds of the runs, without and with online scoring (its drain not counted). */
  readonly plainMs: number;
  readonly scoredMs: number;
  /** What the scoring still had to do once the last run returned. */
  readonly drainMs: number;
  /** Evaluation events in the last scored round's trace, and the runs it scored. */
  readonly evaluations: number;
  readonly scored: number;
}

const lookup = tool({
  name: 'lookup',
  description: 'Look an order up',
  input: z.object({ order: z.string() }),
  execute: ({ order }) => ({ order, status: 'shipped' }),
});

/** The desk; its model answers after `latencyMs` (a live model's time on the network), or at once. */
function desk(latencyMs: number) {
  const script = fakeLLM(
    [{ toolCalls: [{ name: 'lookup', args: { order: 'A-1' } }] }, { text: 'It has shipped.' }],
    { allowUnusedSteps: true },
  );
  const model: LanguageModel =
    latencyMs === 0
      ? script
      : {
          ...script,
          generate: async request => {
            await new Promise(wait => setTimeout(wait, latencyMs));
            return script.generate(request);
          },
        };
  return agent({ name: 'desk', tools: [lookup], model });
}

/** `runs` runs one after another, traced to `file`; scored online when `scored`. */
async function runs(count: number, file: string, scored: boolean, latencyMs: number) {
  const sink = jsonlSink(file);
  const scoring = scored
    ? onlineScoring({
        scorers: [toolErrorRate(), noLoops(), repeatedToolCalls()],
        to: sink,
        concurrency: 2,
      })
    : undefined;
  const trace = scoring === undefined ? sink : [sink, scoring];
  for (let index = 0; index < count; index++)
    await run(desk(latencyMs), `Where is order A-${index}?`, { trace });
  return { sink, scoring };
}

/** One timed pass: the runs' milliseconds, then the drain's; the sink closed after, untimed. */
async function pass(count: number, file: string, scored: boolean, latencyMs: number) {
  rmSync(file, { force: true });
  const started = performance.now();
  const { sink, scoring } = await runs(count, file, scored, latencyMs);
  const runsMs = performance.now() - started;
  await scoring?.drain(60_000);
  const drainMs = performance.now() - started - runsMs;
  await sink.close();
  return { runsMs, drainMs, scored: scoring?.stats.scored ?? 0 };
}

/**
 * Measures `count` runs with and without online scoring: `rounds` rounds after a warm-up, the two
 * taking turns, each the median.
 */
export async function measureOnlineScoring(
  count = 1000,
  rounds = 5,
  latencyMs = 0,
): Promise<OnlineScoringResult> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-online-'));
  const plain: number[] = [];
  const scoredRuns: number[] = [];
  const drains: number[] = [];
  let scored = 0;
  await pass(Math.min(count, 200), join(folder, 'warm.jsonl'), true, latencyMs);
  for (let round = 0; round < rounds; round++) {
    plain.push((await pass(count, join(folder, 'plain.jsonl'), false, latencyMs)).runsMs);
    const withScoring = await pass(count, join(folder, 'scored.jsonl'), true, latencyMs);
    scoredRuns.push(withScoring.runsMs);
    drains.push(withScoring.drainMs);
    scored = withScoring.scored;
  }
  const text = readFileSync(join(folder, 'scored.jsonl'), 'utf8');
  const evaluations = text.split('"event":"evaluation"').length - 1;
  rmSync(folder, { recursive: true, force: true });
  return {
    runs: count,
    rounds,
    latencyMs,
    plainMs: median(plain),
    scoredMs: median(scoredRuns),
    drainMs: median(drains),
    evaluations,
    scored,
  };
}

/** The cell as lines. */
export function formatOnlineScoring(result: OnlineScoringResult): string {
  const ratio = result.scoredMs / result.plainMs;
  const model = result.latencyMs === 0 ? 'answering at once' : `answering in ${result.latencyMs} ms`;
  return [
    `  ${result.runs} runs, model ${model}, traced to JSONL: ${result.plainMs.toFixed(0)} ms; scored online by 3 scorers: ${result.scoredMs.toFixed(0)} ms (${ratio.toFixed(3)}×), then ${result.drainMs.toFixed(0)} ms to drain`,
    `  ${result.evaluations} evaluation events for ${result.scored} runs scored (median of ${result.rounds} interleaved rounds)`,
  ].join('\n');
}

/** The cell's target: ≤ 5% more wall time, and one evaluation event per run and scorer. */
export function onlineScoringTarget(
  result: OnlineScoringResult,
): readonly [string, boolean, string] {
  const ratio = result.scoredMs / result.plainMs;
  return [
    `online scoring of ${result.runs} runs (model ${result.latencyMs} ms) adds ≤ 5% to their wall time, one evaluation per run and scorer`,
    ratio <= 1.05 && result.evaluations === 3 * result.runs,
    `${ratio.toFixed(3)}×, ${result.evaluations} evaluations`,
  ];
}
