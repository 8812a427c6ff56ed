import { z } from 'zod';
import { tool, toolError } from '@agent-trace/core';
import { ArithmeticError, evaluateArithmetic } from './arithmetic.js';

/**
 * The calculator tool: arithmetic only, read by a parser of its own (never `eval`), so an
 * expression cannot run code. An expression it refuses goes back to the model as a tool error to
 * correct (`toolError`), not as a crash to retry.
 */
export const calculator = tool({
  name: 'calculator',
  description:
    'Evaluates an arithmetic expression: numbers, + - * / // % ** and parentheses. No names or functions.',
  input: z.object({ expression: z.string().min(1).max(500) }),
  execute: ({ expression }) => {
    try {
      return { expression, value: evaluateArithmetic(expression) };
    } catch (error) {
      if (error instanceof ArithmeticError)
        throw toolError(
          `${error.message}. Write arithmetic only: numbers, + - * / // % ** and parentheses.`,
        );
      throw error;
    }
  },
});
