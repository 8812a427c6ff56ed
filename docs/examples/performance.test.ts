// docs/guide/performance.md: the bench's scenario on your own agent, to see what the loop and a
// trace file cost a step. A number to read, not a timed assertion.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-performance-guide-')), 'steps.jsonl');

it('measures µs per step of a scripted run, with and without a trace file', async () => {
  const steps = 100;
  const script = () => [
    ...Array.from({ length: steps - 1 }, (_, a) => ({
      toolCalls: [{ name: 'add', args: { a, b: 1 } }],
    })),
    { text: 'done' },
  ];
  const adder = () =>
    agent({
      name: 'adder',
      model: fakeLLM(script()),
      tools: [add],
      limits: { maxSteps: steps, maxToolCallsPerTool: steps },
    });
  async function microsecondsPerStep(options = {}): Promise<number> {
    const started = performance.now();
    const result = await run(adder(), 'add', options);
    if (result.stopReason !== 'completed') throw new Error(result.detail);
    return ((performance.now() - started) * 1000) / steps;
  }
  const bare = await microsecondsPerStep();
  const traced = await microsecondsPerStep({ trace: jsonlSink(file) });
  console.log(`${bare.toFixed(1)} µs a step; with a JSONL trace ${traced.toFixed(1)} µs`);

  expect(Number.isFinite(bare) && Number.isFinite(traced)).toBe(true);
});
