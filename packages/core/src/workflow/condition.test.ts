import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ConditionError,
  conditionHolds,
  evaluateCondition,
  parseCondition,
  stepsRead,
  type ConditionScope,
} from './condition.js';

const scope: ConditionScope = {
  steps: new Map([
    ['データ収集', { output: { rows: 120, source: 'sales' }, status: 'completed' }],
    ['check', { output: { ok: false, score: 0.9, tags: ['a', 'b'] }, status: 'completed' }],
  ]),
};

describe('workflow conditions', () => {
  it.each([
    ['always', true],
    ['never', false],
    ['steps["データ収集"].output.rows > 100', true],
    ['steps["データ収集"].output.source == "sales" && steps.check.output.score >= 0.8', true],
    ['!steps.check.output.ok || steps.check.output.score < 0.5', true],
    ['!(steps.check.output.ok || steps.check.output.score > 0.5)', false],
    ['steps.check.output.tags[1] == "b"', true],
    ['steps.missing.output.rows > 0', false],
    ['steps.missing.output == null', true],
    ['steps.check.status != "failed"', true],
    ['"10" < 9', false], // a string and a number do not compare
    ['1 < 2 == true', true],
  ])('%s → %s', (text, expected) => {
    expect(conditionHolds(parseCondition(text), scope)).toBe(expected);
  });

  it.each([
    ['steps.a.output >', 'column 17: expected a value'],
    ['steps.a.output > 1 2', 'column 20: unexpected 2 after a complete condition'],
    ['(steps.a.output', 'column 16: expected ) to close the ('],
    ['steps.a.output = 1', 'column 16: unexpected "="'],
    ['output.rows > 1', "column 1: unknown name 'output'"],
    ['steps["a].output', 'column 7: the string is not closed'],
    ['steps.a[true]', 'column 9: expected a "string" or a number inside [ ]'],
    ['steps.', 'column 7: expected a name after "."'],
  ])('refuses %s, saying where and what', (text, message) => {
    expect(() => parseCondition(text)).toThrow(ConditionError);
    expect(() => parseCondition(text)).toThrow(message);
  });

  it('names the steps a condition reads, for the workflow to check', () => {
    expect(
      stepsRead(parseCondition('steps["データ収集"].output.rows > 0 && !steps.check.output.ok')),
    ).toEqual(['データ収集', 'check']);
  });

  it('never throws anything but a ConditionError on any text, and never throws evaluating', () => {
    const fragments = fc.constantFrom(
      'steps',
      '.',
      '["x"]',
      '[0]',
      'output',
      '&&',
      '||',
      '!',
      '==',
      '<',
      '(',
      ')',
      '"s"',
      '1',
      'true',
      ' ',
    );
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc
        .array(fc.oneof(fragments, fc.string({ maxLength: 3 })), { maxLength: 14 })
        .map(parts => parts.join('')),
    );
    const value = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(
        text,
        fc.dictionary(fc.constantFrom('x', 'output', 'a'), value),
        (source, output) => {
          let parsed;
          try {
            parsed = parseCondition(source);
          } catch (error) {
            expect(error).toBeInstanceOf(ConditionError);
            return;
          }
          evaluateCondition(parsed, { steps: new Map([['x', { output, status: 'completed' }]]) });
        },
      ),
      { numRuns: 2000, seed: 1919 },
    );
  });

  it('reads a step in place as a copy of its status, output and error would read (property)', () => {
    // The scope as steps were once given to conditions: a copy of each named step's fields.
    const readCopy = (copy: unknown, segments: readonly (string | number)[]): unknown => {
      let value = copy;
      for (const segment of segments) {
        if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment))
          return null;
        value = (value as Record<string | number, unknown>)[segment];
      }
      return value === undefined ? null : value;
    };
    const step = fc.record(
      {
        status: fc.constantFrom('completed', 'failed', 'skipped'),
        output: fc.jsonValue({ maxDepth: 2 }),
        error: fc.record({ type: fc.constant('error'), message: fc.string({ maxLength: 4 }) }),
      },
      { requiredKeys: ['status'] },
    );
    const segment = fc.constantFrom<string | number>(
      'a',
      'b',
      'output',
      'status',
      'error',
      'x',
      0,
      1,
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('a', 'b'), step),
        fc.array(segment, { maxLength: 4 }),
        (given, segments) => {
          const steps = new Map(Object.entries(given));
          const reads = segments.length > 0 && typeof segments[0] === 'string' ? [segments[0]] : [];
          const copy = Object.fromEntries(
            [...steps]
              .filter(([name]) => reads.includes(name))
              .map(([name, { status, output, error }]) => [
                name,
                { status, output: output ?? null, error },
              ]),
          );
          const text = `steps${segments.map(each => `[${JSON.stringify(each)}]`).join('')}`;
          expect(evaluateCondition(parseCondition(text), { steps, reads })).toStrictEqual(
            readCopy(copy, segments),
          );
        },
      ),
      { numRuns: 2000, seed: 2026 },
    );
  });
});
