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
  return expressionsIn(parseInput(input));
}

/**
 * A step's input with every `${…}` parsed: made once per input, filled in each time the step runs
 * by {@link fillInput}. Data one function walks, not closures: a closure a value of a thousand
 * steps was a call the engine could not inline.
 */
export type ParsedInput =
  /** A number, a boolean, null, or text without `${…}`. */
  | { readonly kind: 'value'; readonly value: unknown }
  /** Text that is exactly `${expression}`: the expression's value, any JSON value. */
  | { readonly kind: 'expression'; readonly condition: Condition }
  /** Text with `${…}` inside: literal text and expressions, alternating. */
  | { readonly kind: 'text'; readonly parts: readonly (string | Condition)[] }
  | { readonly kind: 'list'; readonly items: readonly ParsedInput[] }
  | {
      readonly kind: 'object';
      readonly keys: readonly string[];
      readonly values: readonly ParsedInput[];
      /** A key named __proto__, which only Object.fromEntries sets as data. */
      readonly protoKey: boolean;
    };

/** Parses an input's `${…}`; throws a {@link ConditionError} for a bad one. */
export function parseInput(input: unknown): ParsedInput {
  if (typeof input === 'string') return parseText(input);
  if (Array.isArray(input)) return { kind: 'list', items: input.map(parseInput) };
  if (input === null || typeof input !== 'object') return { kind: 'value', value: input };
  const keys = Object.keys(input);
  return {
    kind: 'object',
    keys,
    values: Object.values(input).map(parseInput),
    protoKey: keys.includes('__proto__'),
  };
}

function parseText(text: string): ParsedInput {
  // Literal text and expressions, alternating; text that is exactly one `${…}` is its value.
  const parts: (string | Condition)[] = [];
  let from = 0;
  for (const match of text.matchAll(template)) {
    const at = match.index ?? 0;
    parts.push(text.slice(from, at), parseAt(match, at));
    from = at + match[0].length;
  }
  if (parts.length === 0) return { kind: 'value', value: text };
  parts.push(text.slice(from));
  const [before, only, after] = parts;
  if (parts.length === 3 && before === '' && after === '')
    return { kind: 'expression', condition: only as Condition };
  return { kind: 'text', parts };
}

/** One `${…}` parsed; a bad one's error says where it is in the whole text. */
function parseAt(match: RegExpMatchArray, at: number): Condition {
  try {
    return parseCondition(match[1] as string);
  } catch (error) {
    if (!(error instanceof ConditionError)) throw error;
    throw new ConditionError(at + 2 + error.column, `in ${match[0]}: ${error.problem}`);
  }
}

/** The expressions of a parsed input, in the order written. */
export function expressionsIn(parsed: ParsedInput): Condition[] {
  switch (parsed.kind) {
    case 'value':
      return [];
    case 'expression':
      return [parsed.condition];
    case 'text':
      return parsed.parts.filter((part): part is Condition => typeof part !== 'string');
    case 'list':
      return parsed.items.flatMap(expressionsIn);
    case 'object':
      return parsed.values.flatMap(expressionsIn);
  }
}

/**
 * The input filled in from `scope`: each object and list built new each time (a tool may change
 * what it is given without changing the workflow).
 */
export function fillInput(parsed: ParsedInput, scope: ConditionScope): unknown {
  switch (parsed.kind) {
    case 'value':
      return parsed.value;
    case 'expression':
      return evaluateCondition(parsed.condition, scope);
    case 'text':
      return fillText(parsed.parts, scope);
    case 'list':
      return parsed.items.map(item => fillInput(item, scope));
    case 'object': {
      const { keys, values } = parsed;
      if (parsed.protoKey)
        return Object.fromEntries(
          keys.map((key, at) => [key, fillInput(values[at] as ParsedInput, scope)]),
        );
      const filled: Record<string, unknown> = {};
      for (let at = 0; at < keys.length; at++)
        filled[keys[at] as string] = fillInput(values[at] as ParsedInput, scope);
      return filled;
    }
  }
}

function fillText(parts: readonly (string | Condition)[], scope: ConditionScope): string {
  let filled = '';
  for (const part of parts) {
    if (typeof part === 'string') filled += part;
    else {
      const value = evaluateCondition(part, scope);
      filled += typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  return filled;
}
