import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TraceEvent } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

const directory = mkdtempSync(join(tmpdir(), 'agent-trace-writer-thread-'));

/** A point event carrying `text`, numbered by `seq` (the sink writes whatever it is given). */
const eventOf = (seq: number, text: string): TraceEvent =>
  ({
    v: 1,
    seq,
    time: new Date(0).toISOString(),
    run: 'r',
    session: 'r',
    trace_id: '0'.repeat(32),
    span_id: seq.toString(16).padStart(16, '0'),
    parent_span_id: null,
    agent: 'a',
    event: 'retry',
    text,
  }) as unknown as TraceEvent;

type Step =
  | { kind: 'write'; sink: number; text: string }
  | { kind: 'flush'; sink: number }
  | { kind: 'yield' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      sink: fc.nat(2),
      text: fc.string({ maxLength: 400 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('flush' as const), sink: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'yield' as const }) },
);

describe('the JSONL writer thread', () => {
  it('writes every line of every sink once, in the order given, whatever the interleaving of hand-overs and flushes', async () => {
    // The thread starts with the first full buffer: have it running before the property.
    const first = join(directory, 'first.jsonl');
    const starter = jsonlSink(first, { flushBytes: 1, flushIntervalMs: 60_000 });
    starter.write(eventOf(0, 'first'));
    await vi.waitFor(() => expect(readFileSync(first, 'utf8')).toContain('first'), {
      timeout: 10_000,
    });
    await starter.close();
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 300 }),
        fc.array(fc.integer({ min: 1, max: 4000 }), { minLength: 3, maxLength: 3 }),
        async (steps, flushBytes) => {
          round++;
          const paths = [0, 1, 2].map(index => join(directory, `round-${round}-${index}.jsonl`));
          const sinks = paths.map((path, index) =>
            jsonlSink(path, { flushBytes: flushBytes[index]!, flushIntervalMs: 60_000 }),
          );
          const expected: string[][] = [[], [], []];
          for (const item of steps) {
            if (item.kind === 'write') {
              const seq = expected[item.sink]!.length;
              expected[item.sink]!.push(item.text);
              sinks[item.sink]!.write(eventOf(seq, item.text));
            } else if (item.kind === 'flush') await sinks[item.sink]!.flush();
            else await new Promise(resolve => setImmediate(resolve));
          }
          await Promise.all(sinks.map(sink => sink.close()));
          paths.forEach((path, index) => {
            const text = readFileSync(path, 'utf8');
            const lines = text === '' ? [] : text.trimEnd().split('\n');
            expect(lines.map(line => (JSON.parse(line) as { text: string }).text)).toEqual(
              expected[index],
            );
          });
        },
      ),
      { numRuns: 40, seed: 32 },
    );
  });
});
