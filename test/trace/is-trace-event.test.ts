import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isTraceEvent, TraceEvent, traceEventNames } from '@agent-trace/core';
import { compileSchemaCheck } from '@agent-trace/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const goldenDirectory = join(import.meta.dirname, '../../golden');
/** A golden event with real ids, times and durations again (goldens store `span-3`, `<time>`). */
function denormalize(event: Record<string, unknown>): Record<string, unknown> {
  const hexOf = (name: unknown, length: number) =>
    typeof name === 'string' ? name.replace(/\D/g, '').padStart(length, '0') : name;
  return {
    ...event,
    time: '2026-11-21T10:00:00.000Z',
    ...('duration_ms' in event ? { duration_ms: 3 } : {}),
    trace_id: hexOf(event.trace_id, 32),
    span_id: hexOf(event.span_id, 16),
    parent_span_id: hexOf(event.parent_span_id, 16),
  };
}

/** Every event of the golden traces: all kinds, with and without the optional fields. */
const events: Record<string, unknown>[] = readdirSync(goldenDirectory)
  .filter(name => name.endsWith('.jsonl'))
  .flatMap(name =>
    readFileSync(join(goldenDirectory, name), 'utf8')
      .split('\n')
      .filter(line => line !== '')
      .map(line => denormalize(JSON.parse(line) as Record<string, unknown>)),
  );

/** Replaces the value at `path` (keys and indexes) in a copy of `value`, or deletes it. */
function mutate(value: unknown, path: readonly (string | number)[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  if (rest.length === 0 && next === deleted) delete copy[head];
  else copy[head] = mutate(copy[head], rest, next);
  return copy;
}
const deleted = Symbol('deleted');

/** Every path to a value inside `value`. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return [
    prefix,
    ...keys.flatMap(key => pathsOf((value as Record<string, unknown>)[key], [...prefix, key])),
  ];
}

describe('isTraceEvent', () => {
  it('accepts every event of the golden traces', () => {
    expect(new Set(events.map(event => event.event)).size).toBe(traceEventNames.length); // every kind
    for (const event of events) {
      expect(TraceEvent.safeParse(event).success).toBe(true);
      expect(isTraceEvent(event)).toBe(true);
    }
  });

  it('agrees with TraceEvent.safeParse on any change to a valid event', () => {
    const mutation = fc
      .record({
        event: fc.constantFrom(...events),
        pick: fc.nat(),
        next: fc.oneof(
          fc.jsonValue(),
          fc.constant(deleted),
          fc.constantFrom(
            -1,
            0,
            1.5,
            2 ** 60,
            Number.NaN,
            '',
            'x',
            null,
            'tool_end',
            '2026-13-01T00:00:00Z',
          ),
          fc.stringMatching(/^[0-9a-f]{15,17}$/),
        ),
      })
      .map(({ event, pick, next }) => {
        const paths = pathsOf(event);
        return mutate(event, paths[pick % paths.length] as (string | number)[], next);
      });
    fc.assert(
      fc.property(mutation, value => {
        expect(isTraceEvent(value)).toBe(TraceEvent.safeParse(value).success);
      }),
      { numRuns: 3000, seed: 20261121 },
    );
  });

  it('checks a run of a character class as its regular expression does', () => {
    const patterns = [/^[0-9a-f]{16}$/, /^[A-Za-z_-]{2,4}$/, /^[-a]{1}$/, /^[a-]{0,2}$/];
    const text = fc.oneof(
      fc.stringMatching(/^[0-9a-fA-Z_-]{0,18}$/),
      fc.string({ maxLength: 18, unit: 'binary' }),
    );
    for (const pattern of patterns) {
      const check = compileSchemaCheck(z.string().regex(pattern));
      fc.assert(
        fc.property(text, input => {
          expect(check(input)).toBe(pattern.test(input));
        }),
        { numRuns: 2000, seed: 20261125 },
      );
      expect(check('\u0130'.repeat(16))).toBe(false); // above ASCII, never in the class
    }
  });

  it('refuses what it was not built to check, when compiled', () => {
    expect(() => compileSchemaCheck(z.object({ when: z.date() }))).toThrow(
      /does not support the schema type 'date'/,
    );
  });
});
