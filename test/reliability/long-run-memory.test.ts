import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { jsonlSink, validateTraceFile } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const heapAfterGc = (): number => {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** Heap bytes a finished run of `steps` steps keeps alive (its result: history and steps). */
async function retainedBytesPerStep(steps: number, path: string): Promise<number> {
  const script: FakeLLMStep[] = [
    ...Array.from({ length: steps - 1 }, (_, index) => ({
      toolCalls: [{ name: 'add', args: { a: index, b: 1 } }],
    })),
    { text: 'done' },
  ];
  const model = fakeLLM(script);
  const subject = agent({
    name: 'long',
    model,
    tools: [add],
    limits: { maxSteps: steps, maxToolCallsPerTool: steps },
  });
  const sink = jsonlSink(path);
  const before = heapAfterGc();
  const result = await run(subject, 'go', { trace: sink });
  await sink.close();
  const retained = heapAfterGc() - before;
  expect(result.stopReason).toBe('completed');
  expect(result.messages).toHaveLength(2 * steps); // kept on purpose: the history itself
  return retained / steps;
}

it('a 10,000-step run keeps no more per step than a 1,000-step one: memory grows with the history only', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'agent-trace-long-run-'));
  const short = await retainedBytesPerStep(1000, join(directory, 'short.jsonl'));
  const long = await retainedBytesPerStep(10_000, join(directory, 'long.jsonl'));
  // The history, step records and tool records: about 1.5 KB a step, the same at any length.
  expect(long).toBeLessThan(4096);
  expect(long).toBeLessThan(short * 1.25);
  expect((await validateTraceFile(join(directory, 'long.jsonl'))).problems).toEqual([]);
}, 30_000);
