/**
 * Per-step flatness inside one long run: the median time between consecutive model calls at the
 * start, middle and end of a 1,000-step run. Bookkeeping that grew with the history would make
 * late steps slower; garbage collection only adds occasional spikes, which the median ignores and
 * the mean shows.
 */
import { run } from '@agent-trace/core';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { median } from './measure.js';
import { adderAgent, addArguments } from './scenario.js';

/** Median µs per step in three windows of a run, and the mean over all steps. */
export interface StepFlatness {
  steps: number;
  firstMedianUs: number;
  middleMedianUs: number;
  lastMedianUs: number;
  meanUs: number;
}

/** Runs `runs` runs of `steps` steps (after two warm-up runs) and returns the median of each figure. */
export async function measureStepFlatness(steps = 1000, runs = 8): Promise<StepFlatness> {
  const results: StepFlatness[] = [];
  for (let index = 0; index < runs + 2; index++) {
    const stamps: number[] = [];
    const script: FakeLLMStep[] = [
      ...Array.from({ length: steps - 1 }, (_, a): FakeLLMStep => () => {
        stamps.push(performance.now());
        return {
          toolCalls: [{ name: 'add', args: addArguments(a) }],
          usage: { promptTokens: 1, completionTokens: 1 },
        };
      }),
      { text: 'done' },
    ];
    await run(adderAgent(fakeLLM(script), steps), 'go');
    if (index < 2) continue;
    const gaps = stamps.slice(1).map((stamp, position) => (stamp - stamps[position]!) * 1000);
    const middle = Math.floor(gaps.length / 2);
    results.push({
      steps,
      firstMedianUs: median(gaps.slice(0, 100)),
      middleMedianUs: median(gaps.slice(middle - 50, middle + 50)),
      lastMedianUs: median(gaps.slice(-100)),
      meanUs: gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length,
    });
  }
  const pick = (key: keyof StepFlatness) => median(results.map(result => result[key]));
  return {
    steps,
    firstMedianUs: pick('firstMedianUs'),
    middleMedianUs: pick('middleMedianUs'),
    lastMedianUs: pick('lastMedianUs'),
    meanUs: pick('meanUs'),
  };
}

/** A one-line report. */
export function formatStepFlatness(result: StepFlatness): string {
  return [
    `steps 1–100: ${result.firstMedianUs.toFixed(1)} µs`,
    `middle 100: ${result.middleMedianUs.toFixed(1)} µs`,
    `last 100: ${result.lastMedianUs.toFixed(1)} µs`,
    `last / first: ${(result.lastMedianUs / result.firstMedianUs).toFixed(2)}×`,
    `mean incl. GC: ${result.meanUs.toFixed(1)} µs`,
  ].join(' · ');
}
