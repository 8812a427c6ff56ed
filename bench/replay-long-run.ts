/**
 * Replay of a long recording: a 10,000-step run is written as JSONL, then `rerunTrace`
 * re-executes the agent against it (models and tools answer from the recording) and compares.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { fakeLLM, rerunTrace } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { timeIt } from './measure.js';
import { adderAgent, addScript } from './scenario.js';

/** What the replay benchmark measured. */
export interface ReplayResult {
  steps: number;
  events: number;
  megabytes: number;
  recordMs: number;
  replayMs: number;
  same: boolean;
}

/** Records a run of `steps` model calls, then replays it. */
export async function measureReplay(steps = 10_000): Promise<ReplayResult> {
  const directory = mkdtempSync(join(tmpdir(), 'agent-trace-bench-replay-'));
  const path = join(directory, 'long.jsonl');
  try {
    const sink = jsonlSink(path);
    let events = 0;
    const recordMs = await timeIt(async () => {
      const result = await run(adderAgent(fakeLLM(addScript(steps)), steps), 'go', { trace: sink });
      events = result.steps.length;
    });
    await sink.close();
    let same = false;
    const replayMs = await timeIt(async () => {
      // The model answers from the recording: its own script is never read.
      const report = await rerunTrace(
        path,
        adderAgent(fakeLLM([], { allowUnusedSteps: true }), steps),
      );
      same = report.same;
      events = report.recorded.length;
    });
    return {
      steps,
      events,
      megabytes: statSync(path).size / 2 ** 20,
      recordMs,
      replayMs,
      same,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A one-line report. */
export const formatReplay = (result: ReplayResult): string =>
  `${result.steps} steps (${result.events} events, ${result.megabytes.toFixed(1)} MB): recorded in ${(result.recordMs / 1000).toFixed(2)} s, ` +
  `replayed and compared in ${(result.replayMs / 1000).toFixed(2)} s — ${result.same ? 'no divergence' : 'DIVERGED'}`;
