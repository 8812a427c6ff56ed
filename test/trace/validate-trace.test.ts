import { agent, run, tool, type TraceEvent } from '@agent-trace/core';
import { approveAll, fakeLLM, runWithApprover } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

async function sampleRun(): Promise<TraceEvent[]> {
  const ping = tool({
    name: 'ping',
    description: 'Ping',
    input: z.object({}),
    execute: () => 'pong',
  });
  const sink = memorySink();
  await run(
    agent({
      name: 'a',
      model: fakeLLM([{ toolCalls: [{ name: 'ping' }] }, { text: 'ok' }]),
      tools: [ping],
    }),
    'go',
    { trace: sink },
  );
  return sink.events;
}

const kinds = (events: TraceEvent[]) => validateTrace(events).problems.map(problem => problem.kind);

describe('validateTrace', () => {
  it('accepts a complete run', async () => {
    const report = validateTrace(await sampleRun());
    expect(report).toMatchObject({ valid: true, events: 10, problems: [] });
    expect(report.runs).toEqual([
      expect.objectContaining({ agent: 'a', events: 10, stopReason: 'completed' }),
    ]);
  });

  it('finds a gap in seq', async () => {
    const events = await sampleRun();
    events.splice(4, 1); // tool_start
    const report = validateTrace(events);
    expect(report.problems.map(problem => problem.kind)).toEqual([
      'seq_gap',
      'unmatched_end',
      'bad_seal',
    ]);
    expect(report.problems[0]!.message).toBe(
      `seq jumps from 3 to 5 in run ${events[0]!.run}: events 4 are missing.`,
    );
  });

  it('finds a duplicate seq', async () => {
    const events = await sampleRun();
    events.splice(3, 0, events[2]!);
    expect(kinds(events)).toContain('seq_duplicate');
  });

  it('finds a start without its end and an end without its start', async () => {
    const events = await sampleRun();
    const toolEnd = events.findIndex(event => event.event === 'tool_end');
    const withoutEnd = events
      .filter((_, index) => index !== toolEnd)
      .map((event, seq) => ({ ...event, seq }));
    const last = withoutEnd.at(-1) as TraceEvent & { last_seq: number; counts: { events: number } };
    last.last_seq = last.seq;
    last.counts = { ...last.counts, events: withoutEnd.length };
    expect(kinds(withoutEnd)).toEqual(['unpaired_start']);

    const mismatched = events.map(event =>
      event.event === 'tool_end' ? { ...event, span_id: 'f'.repeat(16) } : event,
    );
    expect(kinds(mismatched)).toEqual(['unmatched_end', 'unpaired_start']);
  });

  it('finds a run without its run_end seal', async () => {
    const events = (await sampleRun()).slice(0, -1);
    const report = validateTrace(events);
    expect(report.problems.map(problem => problem.kind)).toEqual(['missing_run_end']);
    expect(report.runs[0]!.stopReason).toBeUndefined();
  });

  it('finds a seal that does not match the run and events after the seal', async () => {
    const events = await sampleRun();
    const end = events.at(-1) as TraceEvent & { last_seq: number };
    const wrongSeal = [...events.slice(0, -1), { ...end, last_seq: 99 }];
    expect(kinds(wrongSeal)).toEqual(['bad_seal']);
    const afterSeal = [...events, { ...events[2]!, seq: events.length, span_id: 'e'.repeat(16) }];
    expect(kinds(afterSeal)).toEqual(['event_after_seal', 'unpaired_start']);
  });

  it('finds a run that does not begin with run_start and a parent that was never opened', async () => {
    const events = (await sampleRun()).slice(1);
    expect(kinds(events)).toContain('missing_run_start');
    expect(kinds(events)).toContain('unknown_parent');
  });
});

describe('validateTrace over many runs', () => {
  /** The run again under `count` other run ids, one after the other. */
  const many = (events: readonly TraceEvent[], count: number): TraceEvent[] =>
    Array.from({ length: count }, (_, index) =>
      events.map(event => ({ ...event, run: `run-${index}` })),
    ).flat();

  it('keeps finding what breaks a sealed run after it forgot its seqs and spans', async () => {
    const events = many(await sampleRun(), 50);
    expect(validateTrace(events)).toMatchObject({ valid: true, events: 500 });
    expect(validateTrace(events).runs).toHaveLength(50);
    const first = events.slice(0, 10);
    // An event of run-0 again at the end: after its seal, its seq seen before.
    const late = [...events, { ...first[4]!, seq: 3 }];
    expect(kinds(late)).toEqual(expect.arrayContaining(['event_after_seal', 'seq_duplicate']));
    expect(kinds(late)).not.toContain('unknown_parent');
  });

  it('a paused run keeps its spans and seqs: its resumed part is checked against them', async () => {
    const refund = tool({
      name: 'refund',
      description: 'Refund',
      input: z.object({}),
      needsApproval: true,
      execute: () => 'done',
    });
    const sink = memorySink();
    await runWithApprover(
      agent({
        name: 'desk',
        model: fakeLLM([{ toolCalls: [{ name: 'refund', args: {} }] }, { text: 'ok' }]),
        tools: [refund],
      }),
      'go',
      approveAll(),
      { trace: sink },
    );
    const events = [...many(await sampleRun(), 3), ...sink.events];
    expect(kinds(events)).toEqual([]);
    const resumedAt = sink.events.findIndex(
      event => event.event === 'run_start' && 'resumed' in event && event.resumed !== undefined,
    );
    const pausedSeq = sink.events[resumedAt - 1]!.seq;
    // The resumed part repeats a seq of the paused part.
    const repeated = sink.events.map((event, index) =>
      index === resumedAt + 1 ? { ...event, seq: pausedSeq - 2 } : event,
    );
    expect(kinds([...many(await sampleRun(), 3), ...repeated])).toContain('seq_duplicate');
  });
});
