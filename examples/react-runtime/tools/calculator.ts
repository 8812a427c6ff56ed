import { z } from 'zod';
import { tool } from '@agent-trace/core';
import { evaluateArithmetic } from './arithmetic.js';

/** Seed 002's calculator: arithmetic only, parsed safely (never `eval`). */
export const calculator = tool({
  name: 'calculator',
  description:
    'Evaluates an arithmetic expression: numbers, + - * / // % ** and parentheses. No names or functions.',
  input: z.object({ expression: z.string().min(1).max(500) }),
  execute: ({ expression }) => ({ expression, value: evaluateArithmetic(expression) }),
});
