import type { EvalComparison } from '../compare/compare-evals.js';

/** One eval's comparison with what names its two sides, as reports show it. */
export interface ComparedEval {
  readonly eval: string;
  /** What names each side: an experiment id, a file. */
  readonly baseline: string;
  readonly candidate: string;
  /** A commit or branch to show beside each side, when known. */
  readonly baselineLabel?: string;
  readonly candidateLabel?: string;
  readonly comparison: EvalComparison;
  /** Notes a reader should see first (the datasets differ, say). */
  readonly notes?: readonly string[];
}

/** A number with its sign and three decimals. */
export const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;

/** A score as people read it: at most three decimals (`0.333`, `1`). */
export const shortScore = (value: number) => String(Number(value.toFixed(3)));
