import type { z } from 'zod';
import { asText as text, type EvalCase, type Scorer } from '../scorer.js';
import { jsonEqual } from './trajectory.js';

/** Where an output scorer's reference comes from: given here, else the case's `expected.output`. */
function referenceOf<T>(name: string, given: T | undefined, evalCase: EvalCase): T {
  if (given !== undefined) return given;
  const expected = evalCase.expected as { output?: T } | undefined;
  if (expected?.output !== undefined) return expected.output;
  throw new Error(
    `Scorer '${name}' has nothing to compare with: give it a value, or put one in the case's expected.output.`,
  );
}

/** 1 when the output equals the reference (strings as they are, other values as JSON values). */
export function exactMatch(reference?: unknown, name = 'exact'): Scorer {
  return {
    name,
    score({ case: evalCase, output }) {
      const wanted = referenceOf(name, reference, evalCase);
      return jsonEqual(output, wanted)
        ? { score: 1, reason: 'the output is the reference' }
        : { score: 0, reason: `expected ${text(wanted)}, got ${text(output)}` };
    },
  };
}

/** 1 when the output's text holds the reference text (case ignored unless `caseSensitive`). */
export function includes(
  reference?: string,
  { caseSensitive = false, name = 'includes' }: { caseSensitive?: boolean; name?: string } = {},
): Scorer {
  return {
    name,
    score({ case: evalCase, output }) {
      const wanted = referenceOf(name, reference, evalCase);
      const fold = (value: string) => (caseSensitive ? value : value.toLowerCase());
      return fold(text(output)).includes(fold(wanted))
        ? { score: 1, reason: `the output holds '${wanted}'` }
        : { score: 0, reason: `the output does not hold '${wanted}'` };
    },
  };
}

/** 1 when the output's text matches `pattern`. */
export function matchesRegex(pattern: RegExp, name = 'regex'): Scorer {
  return {
    name,
    score({ output }) {
      pattern.lastIndex = 0;
      return pattern.test(text(output))
        ? { score: 1, reason: `the output matches ${String(pattern)}` }
        : { score: 0, reason: `the output does not match ${String(pattern)}` };
    },
  };
}

/** 1 when the output (a string is read as JSON) satisfies the zod schema; the reason names the problem. */
export function matchesSchema(schema: z.ZodType, name = 'schema'): Scorer {
  return {
    name,
    score({ output }) {
      let value = output;
      if (typeof output === 'string') {
        try {
          value = JSON.parse(output) as unknown;
        } catch {
          return { score: 0, reason: 'the output is not JSON' };
        }
      }
      const checked = schema.safeParse(value);
      if (checked.success) return { score: 1, reason: 'the output fits the schema' };
      const issue = checked.error.issues[0];
      return {
        score: 0,
        reason: `${issue?.path.join('.') || 'the output'}: ${issue?.message ?? 'does not fit'}`,
      };
    },
  };
}

/**
 * How close a numeric output is to the reference: 1 within `tolerance` (absolute), falling
 * linearly to 0 at `tolerance + spread`.
 */
export function numericCloseness(
  reference?: number,
  {
    tolerance = 0,
    spread = 1,
    name = 'numeric',
  }: { tolerance?: number; spread?: number; name?: string } = {},
): Scorer {
  return {
    name,
    score({ case: evalCase, output }) {
      const wanted = referenceOf(name, reference, evalCase);
      const got = typeof output === 'number' ? output : Number.parseFloat(text(output));
      if (!Number.isFinite(got))
        return { score: 0, reason: `the output ${text(output)} is not a number` };
      const off = Math.abs(got - wanted);
      const score = off <= tolerance ? 1 : Math.max(0, 1 - (off - tolerance) / spread);
      return { score, reason: `${got} is ${off} from ${wanted}` };
    },
  };
}
