import { agent, run, steppingClock, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { otlpSink } from '@agent-trace/trace/otlp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { receiver } from './otlp-fixtures.js';

const add = tool({
  name: 'add',
  description: 'Add',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** An agent that calls `add` ten times, then answers: 1 run + 1 agent + 11 model + 10 tool spans. */
const tenToolSteps = (index: number) =>
  agent({
    name: 'adder',
    model: fakeLLM([
      ...Array.from({ length: 10 }, (_, step) => ({
        toolCalls: [{ name: 'add', args: { a: index, b: step } }],
      })),
      { text: 'done' },
    ]),
    tools: [add],
    limits: { maxSteps: 11, maxToolCallsPerTool: 10 },
  });

describe('OTLP export under steady load', () => {
  it('delivers every span of 200 back-to-back runs to a healthy collector', async () => {
    const collector = await receiver();
    const sink = otlpSink({ endpoint: collector.url });
    const runs = 200;
    for (let index = 0; index < runs; index++)
      await run(tenToolSteps(index), 'go', { trace: sink, clock: steppingClock() });
    await sink.forceFlush();
    const spansPerRun = 23;
    expect(sink.stats).toMatchObject({ exported: runs * spansPerRun, failed: 0, dropped: 0 });
    expect(collector.spans).toHaveLength(runs * spansPerRun);
    await sink.shutdown();
  });

  it('drops only what overflows the queue, counted, when the collector cannot keep up', async () => {
    const collector = await receiver();
    collector.setBehaviour({ kind: 'slow', delayMs: 200 });
    const sink = otlpSink({ endpoint: collector.url, maxQueueSize: 50 });
    for (let index = 0; index < 10; index++)
      await run(tenToolSteps(index), 'go', { trace: sink, clock: steppingClock() });
    expect(sink.stats.dropped).toBeGreaterThan(0);
    await sink.shutdown();
    const { exported, failed, dropped } = sink.stats;
    expect(exported + failed + dropped).toBe(10 * 23);
  });
});
