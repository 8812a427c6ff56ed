/**
 * Replay of a long recording: a 10,000-step run is written as JSONL, then `replayTrace`
 * re-executes the agent against it (models and tools answer from the recording) and compares.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, tool, type LanguageModel } from '@agent-trace/core';
import { fakeLLM, replayTrace, type FakeLLMStep } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { z } from 'zod';
import { timeIt } from './measure.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const adder = (model: LanguageModel, steps: number) =>
  agent({
    name: 'bench',
    model,
    tools: [add],
    limits: { maxSteps: steps, maxToolCallsPerTool: steps },
  });

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
    const script: FakeLLMStep[] = [
      ...Array.from({ length: steps - 1 }, (_, index) => ({
        toolCalls: [{ name: 'add', args: { a: index, b: 1 } }],
      })),
      { text: 'done' },
    ];
    const sink = jsonlSink(path);
    let events = 0;
    const recordMs = await timeIt(async () => {
      const result = await run(adder(fakeLLM(script), steps), 'go', { trace: sink });
      events = result.steps.length;
    });
    await sink.close();
    let same = false;
    const replayMs = await timeIt(async () => {
      // The model answers from the recording: its own script is never read.
      const report = await replayTrace(path, adder(fakeLLM([], { allowUnusedSteps: true }), steps));
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
