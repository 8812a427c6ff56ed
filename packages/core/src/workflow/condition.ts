/**
 * The condition language of workflow steps: a small expression over earlier steps' outputs,
 * parsed and evaluated here, never by `eval`.
 *
 * ```text
 * always | never
 * steps.collect.output.rows > 0 && steps["前処理"].status == "completed"
 * !(steps.check.output.ok) || steps.check.output.score >= 0.8
 * ```
 *
 * Values: numbers, strings in double quotes, `true`, `false`, `null`, and paths from `steps`
 * (`.name` or `["any name"]`, then `.field` or `[index]`) or from `input` (the workflow's input). Operators, loosest first: `||`, `&&`,
 * `==` `!=`, `<` `<=` `>` `>=`, `!`. A missing path is `null`; comparing numbers with `<` needs
 * numbers (or strings with strings).
 */

/** A condition that does not parse: what, and at which column (1-based). */
export class ConditionError extends Error {
  constructor(
    readonly column: number,
    readonly problem: string,
  ) {
    super(`column ${column}: ${problem}`);
    this.name = 'ConditionError';
  }
}

type Token =
  | { readonly kind: 'number'; readonly value: number; readonly at: number }
  | { readonly kind: 'string'; readonly value: string; readonly at: number }
  | { readonly kind: 'name'; readonly value: string; readonly at: number }
  | { readonly kind: 'op'; readonly value: string; readonly at: number }
  | { readonly kind: 'end'; readonly value: ''; readonly at: number };

/** A parsed condition. */
export type Condition =
  | { readonly kind: 'literal'; readonly value: unknown }
  | {
      readonly kind: 'path';
      /** `steps` (earlier steps, by name) or `input` (the workflow's input). */
      readonly root: 'steps' | 'input';
      readonly segments: readonly (string | number)[];
    }
  | { readonly kind: 'not'; readonly operand: Condition }
  | {
      readonly kind: 'binary';
      readonly op: '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=';
      readonly left: Condition;
      readonly right: Condition;
    };

const operators = ['||', '&&', '==', '!=', '<=', '>=', '<', '>', '!', '(', ')', '[', ']', '.'];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const character = text[at] as string;
    if (/\s/.test(character)) {
      at++;
      continue;
    }
    const number = /^\d+(?:\.\d+)?/.exec(text.slice(at));
    if (number !== null) {
      tokens.push({ kind: 'number', value: Number(number[0]), at });
      at += number[0].length;
      continue;
    }
    if (character === '"') {
      const end = stringEnd(text, at);
      tokens.push({ kind: 'string', value: JSON.parse(text.slice(at, end + 1)) as string, at });
      at = end + 1;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(at));
    if (name !== null) {
      tokens.push({ kind: 'name', value: name[0], at });
      at += name[0].length;
      continue;
    }
    const op = operators.find(candidate => text.startsWith(candidate, at));
    if (op === undefined)
      throw new ConditionError(
        at + 1,
        `unexpected ${JSON.stringify(character)}: write names, "strings", numbers and the operators || && == != < <= > >= !`,
      );
    tokens.push({ kind: 'op', value: op, at });
    at += op.length;
  }
  tokens.push({ kind: 'end', value: '', at });
  return tokens;
}

/** Where a double-quoted string starting at `from` ends (its closing quote). */
function stringEnd(text: string, from: number): number {
  for (let at = from + 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') {
      try {
        JSON.parse(text.slice(from, at + 1));
      } catch {
        throw new ConditionError(from + 1, 'the string has an escape JSON does not know');
      }
      return at;
    }
  }
  throw new ConditionError(from + 1, 'the string is not closed: add the closing "');
}

class Parser {
  #at = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  parse(): Condition {
    const condition = this.#or();
    const next = this.#peek();
    if (next.kind !== 'end')
      throw new ConditionError(
        next.at + 1,
        `unexpected ${JSON.stringify(next.value)} after a complete condition: join conditions with && or ||`,
      );
    return condition;
  }

  #peek(): Token {
    return this.tokens[this.#at] as Token;
  }

  #take(): Token {
    return this.tokens[this.#at++] as Token;
  }

  #accept(op: string): boolean {
    const next = this.#peek();
    if (next.kind !== 'op' || next.value !== op) return false;
    this.#at++;
    return true;
  }

  #expect(op: string, what: string): void {
    const next = this.#peek();
    if (!this.#accept(op))
      throw new ConditionError(
        next.at + 1,
        `expected ${op} ${what}, found ${next.kind === 'end' ? 'the end' : JSON.stringify(next.value)}`,
      );
  }

  #or(): Condition {
    let left = this.#and();
    while (this.#accept('||')) left = { kind: 'binary', op: '||', left, right: this.#and() };
    return left;
  }

  #and(): Condition {
    let left = this.#equality();
    while (this.#accept('&&')) left = { kind: 'binary', op: '&&', left, right: this.#equality() };
    return left;
  }

  #equality(): Condition {
    let left = this.#comparison();
    for (;;) {
      const op = ['==', '!='].find(candidate => this.#accept(candidate));
      if (op === undefined) return left;
      left = { kind: 'binary', op: op as '==' | '!=', left, right: this.#comparison() };
    }
  }

  #comparison(): Condition {
    let left = this.#unary();
    for (;;) {
      const op = ['<=', '>=', '<', '>'].find(candidate => this.#accept(candidate));
      if (op === undefined) return left;
      left = { kind: 'binary', op: op as '<' | '<=' | '>' | '>=', left, right: this.#unary() };
    }
  }

  #unary(): Condition {
    if (this.#accept('!')) return { kind: 'not', operand: this.#unary() };
    return this.#primary();
  }

  #primary(): Condition {
    const token = this.#take();
    if (token.kind === 'number' || token.kind === 'string')
      return { kind: 'literal', value: token.value };
    if (token.kind === 'op' && token.value === '(') {
      const inner = this.#or();
      this.#expect(')', 'to close the (');
      return inner;
    }
    if (token.kind === 'name') return this.#named(token);
    throw new ConditionError(
      token.at + 1,
      `expected a value (a step's output, a "string", a number, true, false or null), found ${token.kind === 'end' ? 'the end' : JSON.stringify(token.value)}`,
    );
  }

  #named(token: Extract<Token, { kind: 'name' }>): Condition {
    const literals: Record<string, unknown> = {
      true: true,
      false: false,
      null: null,
      always: true,
      never: false,
    };
    if (Object.hasOwn(literals, token.value))
      return { kind: 'literal', value: literals[token.value] };
    if (token.value !== 'steps' && token.value !== 'input')
      throw new ConditionError(
        token.at + 1,
        `unknown name '${token.value}': a condition reads earlier steps as steps.<name>.output (or steps["<name>"].output), the workflow's input as input, or is always / never`,
      );
    return { kind: 'path', root: token.value, segments: this.#segments() };
  }

  #segments(): (string | number)[] {
    const segments: (string | number)[] = [];
    for (;;) {
      if (this.#accept('.')) {
        const name = this.#take();
        if (name.kind !== 'name')
          throw new ConditionError(
            name.at + 1,
            'expected a name after "." (use ["…"] for a name with spaces or other letters)',
          );
        segments.push(name.value);
      } else if (this.#accept('[')) {
        const key = this.#take();
        if (key.kind !== 'string' && key.kind !== 'number')
          throw new ConditionError(key.at + 1, 'expected a "string" or a number inside [ ]');
        segments.push(key.value);
        this.#expect(']', 'to close the [');
      } else return segments;
    }
  }
}

/** Parses a condition; throws a {@link ConditionError} saying what is wrong and where. */
export function parseCondition(text: string): Condition {
  return new Parser(tokenize(text)).parse();
}

/** An earlier step as a condition reads it. */
export interface ConditionStep {
  readonly status: string;
  readonly output?: unknown;
  readonly error?: unknown;
}

/** What a condition reads: each earlier step's status, output and error, by step name, and the input. */
export interface ConditionScope {
  readonly steps: ReadonlyMap<string, ConditionStep>;
  /** The steps the expressions name: what `steps` read whole holds. @defaultValue every step */
  readonly reads?: readonly string[];
  /** The workflow's input. */
  readonly input?: unknown;
}

/** What `steps.<name>` has: a step's record is read in place, never copied. */
const stepFields = new Set(['status', 'output', 'error']);

function lookup(
  scope: ConditionScope,
  root: 'steps' | 'input',
  segments: readonly (string | number)[],
): unknown {
  if (root === 'input') return walk(scope.input, segments, 0);
  // Indexed, not destructured: destructuring goes through the array's iterator, every read.
  const name = segments[0];
  const field = segments[1];
  if (name === undefined) return stepsObject(scope);
  const step = typeof name === 'string' ? scope.steps.get(name) : undefined;
  if (step === undefined) return null;
  if (field === undefined) return stepView(step);
  if (typeof field !== 'string' || !stepFields.has(field)) return null;
  return walk(step[field as keyof ConditionStep], segments, 2);
}

/** A step read whole: its status, output (null when it has none) and error. */
function stepView(step: ConditionStep): Record<string, unknown> {
  return { status: step.status, output: step.output ?? null, error: step.error };
}

/** `value` at `segments` from `from` on; null where a segment is missing. */
function walk(value: unknown, segments: readonly (string | number)[], from: number): unknown {
  let at = value;
  for (let index = from; index < segments.length; index++) {
    const segment = segments[index] as string | number;
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, segment)) return null;
    at = (at as Record<string | number, unknown>)[segment];
  }
  return at === undefined ? null : at;
}

/** `steps` read whole: the ended steps the expressions name, by name. */
function stepsObject({
  steps,
  reads = [...steps.keys()],
}: ConditionScope): Record<string, unknown> {
  const whole: Record<string, unknown> = {};
  for (const name of reads) {
    const step = steps.get(name);
    if (step !== undefined) whole[name] = stepView(step);
  }
  return whole;
}

const truthy = (value: unknown): boolean =>
  !(value === false || value === null || value === undefined || value === 0 || value === '');

function order(op: '<' | '<=' | '>' | '>=', left: unknown, right: unknown): boolean {
  const comparable =
    (typeof left === 'number' && typeof right === 'number') ||
    (typeof left === 'string' && typeof right === 'string');
  if (!comparable) return false;
  const [a, b] = [left, right];
  return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
}

/** Evaluates a parsed condition against earlier steps; never throws. */
export function evaluateCondition(condition: Condition, scope: ConditionScope): unknown {
  switch (condition.kind) {
    case 'literal':
      return condition.value;
    case 'path':
      return lookup(scope, condition.root, condition.segments);
    case 'not':
      return !truthy(evaluateCondition(condition.operand, scope));
    case 'binary': {
      const left = evaluateCondition(condition.left, scope);
      if (condition.op === '||')
        return truthy(left) || truthy(evaluateCondition(condition.right, scope));
      if (condition.op === '&&')
        return truthy(left) && truthy(evaluateCondition(condition.right, scope));
      const right = evaluateCondition(condition.right, scope);
      if (condition.op === '==') return JSON.stringify(left) === JSON.stringify(right);
      if (condition.op === '!=') return JSON.stringify(left) !== JSON.stringify(right);
      return order(condition.op, left, right);
    }
  }
}

/** True when the condition holds for the earlier steps. */
export function conditionHolds(condition: Condition, scope: ConditionScope): boolean {
  return truthy(evaluateCondition(condition, scope));
}

/** The step names a condition reads (`steps.<name>…`): a workflow checks they exist and come earlier. */
export function stepsRead(condition: Condition): string[] {
  switch (condition.kind) {
    case 'literal':
      return [];
    case 'path':
      return condition.root === 'steps' && typeof condition.segments[0] === 'string'
        ? [condition.segments[0]]
        : [];
    case 'not':
      return stepsRead(condition.operand);
    case 'binary':
      return [...stepsRead(condition.left), ...stepsRead(condition.right)];
  }
}
