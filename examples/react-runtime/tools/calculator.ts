import { z } from 'zod';
import { tool } from '@agent-trace/core';
import { evaluateArithmetic } from './arithmetic.js';

/** The calculator tool: arithmetic only, read by a parser of its own (never `eval`), so an expression cannot run code. */
export const calculator = tool({
  name: 'calculator',
  description:
    'Evaluates an arithmetic expression: numbers, + - * / // % ** and parentheses. No names or functions.',
  input: z.object({ expression: z.string().min(1).max(500) }),
  execute: ({ expression }) => ({ expression, value: evaluateArithmetic(expression) }),
});
