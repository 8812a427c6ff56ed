/**
 * A safe arithmetic evaluator: numbers, `+ - * / // % **`, unary signs and parentheses, read by a
 * recursive-descent parser. Names, calls, attributes and anything else are refused with the
 * position of the offending character: nothing is ever evaluated as code.
 */

/** An expression that cannot be evaluated, with where and why. */
export class ArithmeticError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'ArithmeticError';
  }
}

type Token =
  | { readonly kind: 'number'; readonly value: number; readonly at: number }
  | { readonly kind: 'operator'; readonly value: string; readonly at: number }
  | { readonly kind: 'end'; readonly at: number };

const operators = ['**', '//', '+', '-', '*', '/', '%', '(', ')'];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const rest = source.slice(at);
    const space = /^\s+/.exec(rest);
    if (space !== null) {
      at += space[0].length;
      continue;
    }
    const number = /^(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?/i.exec(rest);
    if (number !== null) {
      tokens.push({ kind: 'number', value: Number(number[0]), at });
      at += number[0].length;
      continue;
    }
    const operator = operators.find(candidate => rest.startsWith(candidate));
    if (operator !== undefined) {
      tokens.push({ kind: 'operator', value: operator, at });
      at += operator.length;
      continue;
    }
    const name = /^[A-Za-z_]\w*/.exec(rest);
    throw new ArithmeticError(
      name !== null
        ? `names and function calls are not allowed ('${name[0]}' at ${at}); write the arithmetic with numbers and + - * / // % ** ( )`
        : `unexpected '${rest[0] ?? ''}' at ${at}; only numbers and + - * / // % ** ( ) are allowed`,
      at,
    );
  }
  tokens.push({ kind: 'end', at: source.length });
  return tokens;
}

class Parser {
  #index = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  get #next(): Token {
    return this.tokens[this.#index] as Token;
  }

  #take(...values: string[]): string | undefined {
    const token = this.#next;
    if (token.kind === 'operator' && values.includes(token.value)) {
      this.#index++;
      return token.value;
    }
    return undefined;
  }

  parse(): number {
    const value = this.#sum();
    if (this.#next.kind !== 'end') throw this.#unexpected();
    return value;
  }

  #sum(): number {
    let value = this.#product();
    for (let op = this.#take('+', '-'); op !== undefined; op = this.#take('+', '-')) {
      const right = this.#product();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  #product(): number {
    let value = this.#unary();
    for (
      let op = this.#take('*', '/', '//', '%');
      op !== undefined;
      op = this.#take('*', '/', '//', '%')
    ) {
      const at = this.tokens[this.#index - 1]?.at ?? 0;
      const right = this.#unary();
      if (op !== '*' && right === 0) throw new ArithmeticError(`division by zero at ${at}`, at);
      value =
        op === '*'
          ? value * right
          : op === '/'
            ? value / right
            : op === '//'
              ? Math.floor(value / right)
              : value - right * Math.floor(value / right);
    }
    return value;
  }

  /** A sign binds less tightly than `**`, as in Python: `-2 ** 2` is -4. */
  #unary(): number {
    const sign = this.#take('+', '-');
    if (sign === undefined) return this.#power();
    const value = this.#unary();
    return sign === '-' ? -value : value;
  }

  #power(): number {
    const base = this.#primary();
    if (this.#take('**') === undefined) return base;
    return base ** this.#unary();
  }

  #primary(): number {
    const token = this.#next;
    if (token.kind === 'number') {
      this.#index++;
      return token.value;
    }
    if (this.#take('(') !== undefined) {
      const value = this.#sum();
      if (this.#take(')') === undefined) throw this.#unexpected("')'");
      return value;
    }
    throw this.#unexpected('a number or (');
  }

  #unexpected(wanted?: string): ArithmeticError {
    const token = this.#next;
    const found = token.kind === 'end' ? 'the end' : `'${token.value}'`;
    return new ArithmeticError(
      `unexpected ${found} at ${token.at}${wanted === undefined ? '' : `; expected ${wanted}`}`,
      token.at,
    );
  }
}

/** Evaluates an arithmetic expression; throws an {@link ArithmeticError} for anything else. */
export function evaluateArithmetic(expression: string): number {
  const value = new Parser(tokenize(expression)).parse();
  if (!Number.isFinite(value)) throw new ArithmeticError('the result is not a finite number', 0);
  return value;
}
