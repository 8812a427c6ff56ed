import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, tool, type TraceEvent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, readTrace, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const sessions = 100;
const directory = mkdtempSync(join(tmpdir(), 'agent-trace-concurrent-'));

/** Echoes its session's number back, after yielding to the other runs a few times. */
const lookup = tool({
  name: 'lookup',
  description: 'Looks a customer up',
  input: z.object({ customer: z.number() }),
  execute: async ({ customer }) => {
    for (let turn = 0; turn < customer % 4; turn++) await new Promise(setImmediate);
    return { customer, plan: `plan-${customer}` };
  },
});

/** Session `index`: two lookups of its own customer, then an answer naming it. */
function desk(index: number) {
  return agent({
    name: 'support',
    model: fakeLLM([
      { toolCalls: [{ name: 'lookup', args: { customer: index } }] },
      { toolCalls: [{ name: 'lookup', args: { customer: index + 1000 } }] },
      { text: `customer ${index} is on plan-${index}` },
    ]),
    tools: [lookup],
  });
}

async function readAll(path: string): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  for await (const event of readTrace(path, { onTornTail: tail => expect(tail).toBeUndefined() }))
    events.push(event);
  return events;
}

/** Each run's events are its own: one session, contiguous seq, paired spans, its own customer. */
function expectIsolated(events: readonly TraceEvent[]): void {
  const byRun = new Map<string, TraceEvent[]>();
  for (const event of events) byRun.set(event.run, [...(byRun.get(event.run) ?? []), event]);
  expect(byRun.size).toBe(sessions);
  for (const [, own] of byRun) {
    const session = own[0]!.session;
    expect(own.every(event => event.session === session)).toBe(true);
    expect(own.map(event => event.seq)).toEqual(own.map((_, index) => index));
    expect(validateTrace(own).problems).toEqual([]);
    const index = Number(session.replace('session-', ''));
    const toolEnds = own.filter(event => event.event === 'tool_end');
    expect(toolEnds.map(event => event.result)).toEqual([
      { customer: index, plan: `plan-${index}` },
      { customer: index + 1000, plan: `plan-${index + 1000}` },
    ]);
    expect(own.at(-1)).toMatchObject({
      event: 'run_end',
      stop_reason: 'completed',
      output: `customer ${index} is on plan-${index}`,
    });
  }
}

describe(`${sessions} concurrent sessions in one process`, () => {
  it('write whole, unmixed lines into one shared JSONL file', async () => {
    const path = join(directory, 'shared.jsonl');
    const sink = jsonlSink(path, { flushBytes: 4096 }); // many writes while runs interleave
    const results = await Promise.all(
      Array.from({ length: sessions }, (_, index) =>
        run(desk(index), `Which plan is customer ${index} on?`, {
          trace: sink,
          session: `session-${index}`,
        }),
      ),
    );
    await sink.close();
    expect(results.map(result => result.output)).toEqual(
      results.map((_, index) => `customer ${index} is on plan-${index}`),
    );
    const events = await readAll(path); // every line parses and validates: nothing interleaved
    expectIsolated(events);
  });

  it('each write their own file', async () => {
    const sinks = Array.from({ length: sessions }, (_, index) =>
      jsonlSink(join(directory, `session-${index}.jsonl`)),
    );
    await Promise.all(
      sinks.map((sink, index) =>
        run(desk(index), `Which plan is customer ${index} on?`, {
          trace: sink,
          session: `session-${index}`,
        }),
      ),
    );
    await Promise.all(sinks.map(sink => sink.close()));
    const files = await Promise.all(sinks.map(sink => readAll(sink.path)));
    expect(files.every(events => new Set(events.map(event => event.run)).size === 1)).toBe(true);
    expectIsolated(files.flat());
  });
});
