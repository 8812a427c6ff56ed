// Parts of a run that go on side by side are written part by part; the trace keeps the order they
// happened in (`made`, `decided_made`), a rerun decides each part's steps in that order, and a
// for_each step's item that a stop cut is in the trace.
import { agent, tool, virtualClock, type TraceEvent } from '@agent-trace/core';
import { runWorkflow, workflow } from '@agent-trace/core/workflow';
import { VirtualTime } from '@agent-trace/core/util';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, rerunTrace, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const prices = {
  'fake:fake-model': {
    inputPerMillion: 100_000,
    outputPerMillion: 100_000,
    source: 'this test',
    asOf: '2026-11-27',
  },
};

const lookup = tool({
  name: 'lookup',
  description: 'Looks an order up',
  input: z.object({ order: z.number() }),
  execute: ({ order }) => ({ order, status: 'shipped' }),
});

/** An agent that looks an order up, then answers. */
const asker = (name: string) =>
  agent({
    name,
    instructions: 'Answer order questions.',
    model: fakeLLM(
      [{ toolCalls: [{ name: 'lookup', args: { order: 7 } }] }, { text: `${name} is done.` }],
      { allowUnusedSteps: true },
    ),
    tools: [lookup],
  });

/** Two agents asked at once. */
const pair = () =>
  workflow({
    name: 'both',
    steps: [
      { name: 'north', agent: asker('north') },
      { name: 'south', agent: asker('south') },
    ],
  });

/** The events' `made`, or their seq where not written. */
const madeOrder = (events: readonly TraceEvent[]) => events.map(event => event.made ?? event.seq);

describe('parts side by side', () => {
  it('write the order they were made in where it is not the seq, and a run one step at a time writes none', async () => {
    const sink = memorySink();
    await runWorkflow(pair(), 'Orders?', { trace: sink });
    const { events } = sink;
    expect(validateTrace(events).valid).toBe(true);
    const made = madeOrder(events);
    // Every event once: the order is the seq's, made again.
    expect([...made].sort((left, right) => left - right)).toEqual(events.map(event => event.seq));
    expect(events.some(event => event.made !== undefined)).toBe(true);
    // Each part's own events keep their order.
    for (const name of ['north', 'south']) {
      const own = events.filter(event => event.agent === name).map(event => event.made ?? event.seq);
      expect(own).toEqual([...own].sort((left, right) => left - right));
    }
    const alone = memorySink();
    const one = workflow({ name: 'one', steps: [{ name: 'north', agent: asker('north') }] });
    await runWorkflow(one, 'Orders?', { trace: alone });
    expect(alone.events.some(event => event.made !== undefined || event.decided_made !== undefined)).toBe(
      false,
    );
  });

  it('rerun the same under a cost limit that stops one part after the other spent, on a clock that never moves', async () => {
    for (let round = 0; round < 5; round++) {
      const sink = memorySink();
      const options = { trace: sink, clock: virtualClock(), prices, maxCostUsd: 4 };
      await runWorkflow(pair(), 'Orders?', options);
      const stopped = sink.events.filter(
        event => event.event === 'agent_end' && event.stop_reason === 'budget_exceeded',
      );
      // The recording is one where a part was stopped by what the other spent.
      expect(stopped.length).toBeGreaterThan(0);
      const report = await rerunTrace(sink.events, pair(), { run: { prices, maxCostUsd: 4 } });
      expect(report.differences).toEqual([]);
    }
  });

  it("keep a for_each step's item that the run's deadline cut: its tool call starts and ends in the trace", async () => {
    // Answers only when the stop reaches it.
    const slow = tool({
      name: 'slow',
      description: 'Takes a while',
      input: z.unknown(),
      execute: (_item, { abortSignal }) =>
        new Promise((_resolve, reject) =>
          abortSignal?.addEventListener('abort', () => reject(new Error('stopped'))),
        ),
    });
    const gather = tool({
      name: 'gather',
      description: 'Gathers the items',
      input: z.unknown(),
      execute: () => [1, 2],
    });
    const fanOut = workflow({
      name: 'fan-out',
      steps: [
        { name: 'gather', tool: gather },
        { name: 'each', tool: slow, dependsOn: ['gather'], forEach: 'steps.gather.output' },
      ],
    });
    const sink = memorySink();
    await runWorkflow(fanOut, 'go', { trace: sink, timeoutMs: 50, clock: virtualClock() });
    const events = sink.events;
    expect(events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'timeout' });
    const calls = events.filter(event => event.event === 'tool_start' && event.tool === 'slow');
    expect(calls).toHaveLength(2);
    const ends = events.filter(event => event.event === 'tool_end' && event.tool === 'slow');
    expect(ends.map(event => event.event === 'tool_end' && event.error?.type)).toEqual([
      'aborted',
      'aborted',
    ]);
    expect(validateTrace(events).problems).toEqual([]);
  });
});

describe('VirtualTime', () => {
  it('ends waits of one time one by one in their order, each after what the one before set going', async () => {
    const time = new VirtualTime(0);
    const said: string[] = [];
    const wait = (order: number | undefined, name: string) =>
      time.sleep(5, undefined, order).then(async () => {
        said.push(name);
        await Promise.resolve();
        said.push(`${name} went on`);
      });
    await Promise.all([wait(undefined, 'plain'), wait(3, 'third'), wait(1, 'first')]);
    expect(said).toEqual(['first', 'first went on', 'third', 'third went on', 'plain', 'plain went on']);
  });
});
