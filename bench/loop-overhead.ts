/**
 * Per-step overhead of the agent loop: a FakeLLM that calls a trivial `add` tool N−1 times, then
 * answers. µs per step = run time / N (median of several runs after warm-up), with no sink, a
 * memory sink and a JSONL sink. The loop's bookkeeping must not grow with the history: the
 * N = 1,000 figure should stay close to the N = 10 one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, tool, type TraceSink } from '@agent-trace/core';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { jsonlSink, memorySink } from '@agent-trace/trace';
import { z } from 'zod';
import { median, sample, table, timeIt } from './measure.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

function script(steps: number): FakeLLMStep[] {
  const calls: FakeLLMStep[] = Array.from({ length: steps - 1 }, (_, index) => ({
    toolCalls: [{ name: 'add', args: { a: index, b: 1 } }],
    usage: { promptTokens: 10, completionTokens: 5 },
  }));
  return [...calls, { text: 'done', usage: { promptTokens: 10, completionTokens: 1 } }];
}

/** One measured configuration. */
export interface LoopOverheadRow {
  sink: string;
  steps: number;
  microsecondsPerStep: number;
}

/** Measures the loop at each N with each sink. */
export async function measureLoopOverhead(
  sizes: readonly number[] = [10, 100, 1000],
): Promise<LoopOverheadRow[]> {
  const directory = mkdtempSync(join(tmpdir(), 'agent-trace-bench-'));
  const sinks: Record<string, () => { sink: TraceSink | undefined; close: () => Promise<void> }> = {
    none: () => ({ sink: undefined, close: () => Promise.resolve() }),
    memory: () => ({ sink: memorySink(), close: () => Promise.resolve() }),
    jsonl: () => {
      const path = join(directory, 'run.jsonl');
      rmSync(path, { force: true });
      const sink = jsonlSink(path);
      return { sink, close: () => sink.close() };
    },
  };
  const rows: LoopOverheadRow[] = [];
  for (const [name, makeSink] of Object.entries(sinks)) {
    for (const steps of sizes) {
      const runs = Math.max(15, Math.round(5000 / steps));
      const durations = await sample(
        async () => {
          const { sink, close } = makeSink();
          const subject = agent({
            name: 'bench',
            model: fakeLLM(script(steps)),
            tools: [add],
            limits: { maxSteps: steps, maxToolCallsPerTool: steps },
          });
          let stopReason = '';
          const milliseconds = await timeIt(async () => {
            ({ stopReason } = await run(subject, 'go', sink === undefined ? {} : { trace: sink }));
          });
          await close();
          if (stopReason !== 'completed')
            throw new Error(`benchmark run stopped with ${stopReason}`);
          return milliseconds;
        },
        { warmups: Math.max(2, Math.round(runs / 4)), samples: runs },
      );
      rows.push({ sink: name, steps, microsecondsPerStep: (median(durations) * 1000) / steps });
    }
  }
  rmSync(directory, { recursive: true, force: true });
  return rows;
}

/** The rows as a printable table with the flatness ratio (N = largest over N = smallest). */
export function formatLoopOverhead(rows: readonly LoopOverheadRow[]): string {
  const sizes = [...new Set(rows.map(row => row.steps))];
  const header = [
    'sink',
    ...sizes.map(size => `N=${size} µs/step`),
    `N=${sizes.at(-1)} / N=${sizes[0]}`,
  ];
  const lines = [...new Set(rows.map(row => row.sink))].map(sink => {
    const values = sizes.map(
      size => rows.find(row => row.sink === sink && row.steps === size)!.microsecondsPerStep,
    );
    return [
      sink,
      ...values.map(value => value.toFixed(1)),
      `${(values.at(-1)! / values[0]!).toFixed(2)}×`,
    ];
  });
  return table([header, ...lines]);
}
