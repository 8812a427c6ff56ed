/**
 * Recording order does not decide sameness: tool calls of one model answer that ran at the same
 * time are compared as the calls the model asked for, their results paired by call id, whatever
 * order they finished in; and a real difference (a result given to another call) still shows.
 */
import { agent, run, tool, type TraceEvent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { compareTraces, memorySink, validateTrace } from '@agent-trace/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A run whose model asks for `count` lookups at once, then answers. */
async function parallelRun(count: number): Promise<TraceEvent[]> {
  const lookup = tool({
    name: 'lookup',
    description: 'Looks a key up',
    input: z.object({ key: z.number() }),
    execute: ({ key }) => `value ${key}`,
  });
  const sink = memorySink();
  await run(
    agent({
      name: 'desk',
      model: fakeLLM([
        {
          toolCalls: Array.from({ length: count }, (_, key) => ({ name: 'lookup', args: { key } })),
        },
        { text: 'done' },
      ]),
      tools: [lookup],
    }),
    'go',
    { trace: sink },
  );
  return sink.events;
}

/**
 * The run with its tool events in another order, as a framework writes them when calls finish in
 * any order: each call's start still before its end, the seqs numbered again.
 */
function reordered(events: readonly TraceEvent[], weights: readonly number[]): TraceEvent[] {
  const first = events.findIndex(e => e.event === 'tool_start');
  const last = events.findLastIndex(e => e.event === 'tool_end');
  const block = events.slice(first, last + 1).map((event, index) => ({
    event,
    weight: weights[index % weights.length]! + (event.event === 'tool_end' ? 1 : 0),
  }));
  const startOf = new Map(
    block.filter(b => b.event.event === 'tool_start').map(b => [b.event.span_id, b.weight]),
  );
  // An end never before its start.
  for (const item of block)
    if (item.event.event === 'tool_end')
      item.weight = Math.max(item.weight, (startOf.get(item.event.span_id) ?? 0) + 0.5);
  const shuffled = block.sort((a, b) => a.weight - b.weight).map(b => b.event);
  return [...events.slice(0, first), ...shuffled, ...events.slice(last + 1)].map((event, seq) =>
    event.event === 'run_end' ? { ...event, seq, last_seq: seq } : { ...event, seq },
  );
}

describe('comparing runs with parallel tool calls', () => {
  it('is the same whatever order the calls finished in (a property)', async () => {
    const runs = new Map<number, TraceEvent[]>();
    for (let count = 2; count <= 5; count++) runs.set(count, await parallelRun(count));
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 5 }),
        fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: 10, maxLength: 10 }),
        fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: 10, maxLength: 10 }),
        (count, left, right) => {
          const events = runs.get(count)!;
          const a = reordered(events, left);
          const b = reordered(events, right);
          expect(validateTrace(a).problems).toEqual([]);
          expect(compareTraces(a, b)).toEqual([]);
        },
      ),
      { seed: 44, numRuns: 200 },
    );
  });

  it('still sees a result given to another call', async () => {
    const events = await parallelRun(3);
    const ends = events.filter(e => e.event === 'tool_end');
    const [one, two] = ends as [
      Extract<TraceEvent, { event: 'tool_end' }>,
      Extract<TraceEvent, { event: 'tool_end' }>,
    ];
    const swapped = events.map(event =>
      event === one
        ? { ...one, result: two.result }
        : event === two
          ? { ...two, result: one.result }
          : event,
    );
    const differences = compareTraces(events, swapped);
    expect(differences.length).toBeGreaterThan(0);
    expect(differences.map(d => `${d.expected} / ${d.actual}`).join('\n')).toContain(
      `tool 'lookup' returns "value 0"`,
    );
  });
});
