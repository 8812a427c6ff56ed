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

/** Expressions already parsed, by text: a workflow fills the same inputs run after run. */
const parsed = new Map<string, Condition>();

function parseExpression(text: string): Condition {
  let condition = parsed.get(text);
  if (condition === undefined) {
    if (parsed.size >= 10_000) parsed.clear();
    condition = parseCondition(text);
    parsed.set(text, condition);
  }
  return condition;
}

/** The input with every `${…}` filled in from `scope`. */
export function fillInput(input: unknown, scope: ConditionScope): unknown {
  if (typeof input === 'string') return fillString(input, scope);
  if (Array.isArray(input)) return input.map(item => fillInput(item, scope));
  if (input !== null && typeof input === 'object')
    return Object.fromEntries(
      Object.entries(input).map(([key, value]) => [key, fillInput(value, scope)]),
    );
  return input;
}

function fillString(text: string, scope: ConditionScope): unknown {
  const whole = /^\$\{([^}]*)\}$/.exec(text);
  if (whole !== null) return evaluateCondition(parseExpression(whole[1] as string), scope);
  if (!text.includes('${')) return text;
  return text.replace(template, (_, expression: string) => {
    const value = evaluateCondition(parseExpression(expression), scope);
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

function visitStrings(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const item of value) visitStrings(item, visit);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) visitStrings(item, visit);
}
