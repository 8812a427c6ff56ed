import { agent, run, type LanguageModel } from '@agent-trace/core';
import { z } from 'zod';
import { asText as text, type Scorer } from '../scorer.js';

/** What a judge answers: a score in [0, 1] and why. */
const verdict = z.object({
  score: z.number().min(0).max(1),
  reason: z.string(),
});

export interface LlmJudgeOptions {
  /** The model that judges: a real provider, a cassette-recorded one, or a `fakeLLM` in tests. */
  readonly model: LanguageModel;
  /** What a good answer is, in words: the judge scores against it. */
  readonly rubric: string;
  /** @defaultValue 'judge' */
  readonly name?: string;
}

/**
 * A model scores the output against a rubric, answering `{ score, reason }` through structured
 * output. The judge is an agent run of its own: traced into the case's trace file (a second run
 * beside the task's), priced like any call, and kept out of what the other scorers read.
 */
export function llmJudge({ model, rubric, name = 'judge' }: LlmJudgeOptions): Scorer {
  const judge = agent({
    name,
    model,
    instructions: `You judge the answer of an AI agent to a request. The rubric:\n${rubric}\nScore the answer from 0 (fails the rubric) to 1 (meets it fully), and say why in one sentence.`,
    output: verdict,
  });
  return {
    name,
    async score({ case: evalCase, output, runOptions }) {
      const request = [
        `Request: ${text(evalCase.input)}`,
        ...(evalCase.expected === undefined ? [] : [`Expected: ${text(evalCase.expected)}`]),
        `Answer: ${text(output)}`,
      ].join('\n');
      const result = await run(judge, request, runOptions ?? {});
      if (result.stopReason !== 'completed' || result.output === undefined)
        throw new Error(
          `the judge did not answer (${result.stopReason}${result.detail === undefined ? '' : `: ${result.detail}`})`,
        );
      return result.output;
    },
  };
}
