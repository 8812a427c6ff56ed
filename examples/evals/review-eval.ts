import { fileURLToPath } from 'node:url';
import { run, type LanguageModel } from '@agent-trace/core';
import { defineEval, noErrors, scorer, trajectoryMatch } from '@agent-trace/evals';
import { reviewJudge } from './judge.js';
import { reviewDesk, reviewRequest, type ReviewInput } from './reviewer.js';

/** The 24 drafts, each with the trajectory a careful review takes and what it must mention. */
export const drafts = fileURLToPath(new URL('drafts.jsonl', import.meta.url));

/** What a case expects: the tool calls of a careful review, and the problems and references it names. */
export interface ReviewExpected {
  readonly trajectory: readonly { tool: string; args: unknown }[];
  readonly mentions: readonly string[];
}

/** A custom scorer: the share of the case's `mentions` the review names. */
export const mentionsAll = scorer<ReviewInput, ReviewExpected, string>(
  'mentions',
  ({ case: { expected }, output }) => {
    const wanted = expected?.mentions ?? [];
    if (wanted.length === 0) return { score: 1, reason: 'nothing to mention' };
    const missing = wanted.filter(mention => !String(output).includes(mention));
    return {
      score: (wanted.length - missing.length) / wanted.length,
      reason: missing.length === 0 ? 'names everything' : `does not name ${missing.join(', ')}`,
    };
  },
);

/**
 * The review desk's eval: every draft reviewed by the desk with `instructions`, scored on its
 * trajectory (the tools, in order, with their arguments), what it names, its errors, and a judge.
 * Prices make the experiment's cost show: the stand-in model is priced like gpt-4o-mini.
 */
export function reviewEval(
  instructions: string,
  { judge, model }: { judge?: LanguageModel; model?: () => LanguageModel } = {},
) {
  return defineEval<ReviewInput, ReviewExpected, string>({
    name: 'document-review',
    data: drafts,
    task: (input, { runOptions }) =>
      run(reviewDesk(instructions, model?.()), reviewRequest(input), runOptions),
    scorers: [trajectoryMatch(), mentionsAll, noErrors(), reviewJudge(judge)],
    config: { instructions, model: model === undefined ? 'instructed-reviewer' : model().modelId },
    runOptions: {
      prices: {
        'fake:instructed-reviewer': {
          inputPerMillion: 0.15,
          outputPerMillion: 0.6,
          source: 'the example prices its stand-in model like gpt-4o-mini',
          asOf: '2026-11-25',
        },
      },
    },
  });
}
