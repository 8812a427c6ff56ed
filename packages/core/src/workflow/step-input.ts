import {
  ConditionError,
  evaluateCondition,
  parseCondition,
  type Condition,
  type ConditionScope,
} from './condition.js';

/**
 * Earlier outputs in a step's input: a string that is exactly `${expression}` becomes the
 * expression's value (any JSON value); `${…}` inside other text is replaced by the value as text.
 * The expression is the condition language: `${steps.collect.output.rows}`, `${input.topic}`.
 */
const template = /\$\{([^}]*)\}/g;

/** The `${…}` expressions in an input, parsed; throws a {@link ConditionError} for a bad one. */
export function inputExpressions(input: unknown): Condition[] {
  const found: Condition[] = [];
  visitStrings(input, text => {
    for (const match of text.matchAll(template)) {
      try {
        found.push(parseCondition(match[1] as string));
      } catch (error) {
        if (!(error instanceof ConditionError)) throw error;
        throw new ConditionError(
          (match.index ?? 0) + 2 + error.column,
          `in ${match[0]}: ${error.problem}`,
        );
      }
    }
  });
  return found;
}

/** How a step's input is filled in: made once per input, run each time the step runs. */
export type InputFiller = (scope: ConditionScope) => unknown;

/**
 * The filler of an input: every `${…}` parsed once, and each object and list built new each time
 * (a tool may change what it is given without changing the workflow). Throws a
 * {@link ConditionError} for a bad expression.
 */
export function inputFiller(input: unknown): InputFiller {
  if (typeof input === 'string') return stringFiller(input);
  if (Array.isArray(input)) {
    const items = input.map(inputFiller);
    return scope => items.map(item => item(scope));
  }
  if (input === null || typeof input !== 'object') return () => input;
  const entries = Object.entries(input).map(([key, value]) => [key, inputFiller(value)] as const);
  // A key named __proto__ is set as data only by Object.fromEntries.
  if (entries.some(([key]) => key === '__proto__'))
    return scope => Object.fromEntries(entries.map(([key, fill]) => [key, fill(scope)]));
  return scope => {
    const filled: Record<string, unknown> = {};
    for (const [key, fill] of entries) filled[key] = fill(scope);
    return filled;
  };
}

function stringFiller(text: string): InputFiller {
  const whole = /^\$\{([^}]*)\}$/.exec(text);
  if (whole !== null) {
    const expression = parseCondition(whole[1] as string);
    return scope => evaluateCondition(expression, scope);
  }
  if (!text.includes('${')) return () => text;
  // Literal text and expressions, alternating: an expression's value as text.
  const parts = text
    .split(template)
    .map((part, index) => (index % 2 === 0 ? part : parseCondition(part)));
  return scope => {
    let filled = '';
    for (const part of parts) {
      if (typeof part === 'string') filled += part;
      else {
        const value = evaluateCondition(part, scope);
        filled += typeof value === 'string' ? value : JSON.stringify(value);
      }
    }
    return filled;
  };
}

function visitStrings(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const item of value) visitStrings(item, visit);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) visitStrings(item, visit);
}
