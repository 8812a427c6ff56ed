import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ConditionError,
  evaluateCondition,
  parseCondition,
  type ConditionScope,
} from './condition.js';
import { fillInput, parseInput } from './step-input.js';

const scope: ConditionScope = {
  steps: new Map([
    ['a', { status: 'completed', output: { n: 2, tags: ['x', 'y'], name: 'Ada' } }],
    ['b', { status: 'failed', error: { type: 'error', message: 'no' } }],
  ]),
  input: { topic: 'rust' },
};

/** The input filled in by reading it afresh each time: what a filler made once must give. */
function filledAfresh(input: unknown): unknown {
  if (typeof input === 'string') {
    const whole = /^\$\{([^}]*)\}$/.exec(input);
    if (whole !== null) return evaluateCondition(parseCondition(whole[1] as string), scope);
    return input.replace(/\$\{([^}]*)\}/g, (_, expression: string) => {
      const value = evaluateCondition(parseCondition(expression), scope);
      return typeof value === 'string' ? value : JSON.stringify(value);
    });
  }
  if (Array.isArray(input)) return input.map(filledAfresh);
  if (input !== null && typeof input === 'object')
    return Object.fromEntries(
      Object.entries(input).map(([key, value]) => [key, filledAfresh(value)]),
    );
  return input;
}

const expressions = fc.constantFrom(
  'steps.a.output',
  'steps.a.output.n',
  'steps.a.output.tags[1]',
  'steps.a.status',
  'steps.b.error.message',
  'steps.b.output',
  'steps.missing.output',
  'input.topic',
  'steps.a.output.n > 1',
);
const texts = fc.oneof(
  fc.string({ maxLength: 8 }).filter(text => !text.includes('${')),
  expressions.map(expression => `\${${expression}}`),
  fc
    .tuple(fc.string({ maxLength: 4 }), expressions, fc.string({ maxLength: 4 }))
    .filter(([before, , after]) => !`${before}${after}`.includes('$'))
    .map(([before, expression, after]) => `${before}\${${expression}}${after}`),
);
const inputs = fc.letrec(tie => ({
  value: fc.oneof(
    { depthSize: 'small' },
    texts,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('q', 'topic', 'n', '__proto__'), tie('value'), {
      maxKeys: 3,
    }),
  ),
})).value;

describe('a step input parsed once and filled in', () => {
  it('gives what reading the input afresh gives, for any input (property)', () => {
    fc.assert(
      fc.property(inputs, input => {
        expect(fillInput(parseInput(input), scope)).toStrictEqual(filledAfresh(input));
      }),
      { numRuns: 1000, seed: 4909 },
    );
  });

  it('builds its objects and lists anew each time, so a tool that changes them changes nothing else', () => {
    const parsed = parseInput({ list: ['${steps.a.output.n}'], fixed: { k: 1 } });
    const fill = (at: ConditionScope) => fillInput(parsed, at);
    const first = fill(scope) as { list: unknown[]; fixed: { k: number } };
    first.list.push('more');
    first.fixed.k = 99;
    expect(fill(scope)).toStrictEqual({ list: [2], fixed: { k: 1 } });
  });

  it('keeps a key named __proto__ as data', () => {
    const input = JSON.parse('{"__proto__": "${input.topic}"}') as unknown;
    const filled = fillInput(parseInput(input), scope) as Record<string, unknown>;
    expect(Object.hasOwn(filled, '__proto__')).toBe(true);
    expect(filled['__proto__']).toBe('rust');
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype);
  });

  it('refuses a bad expression when it is made, saying where', () => {
    expect(() => parseInput({ a: 'x ${steps.a.output >}' })).toThrow(ConditionError);
  });
});
