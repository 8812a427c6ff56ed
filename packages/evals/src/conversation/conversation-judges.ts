import { agent, run, type LanguageModel } from '@agent-trace/core';
import { z } from 'zod';
import type { Scorer } from '../scorer.js';
import { conversed } from './conversation-scorers.js';

/** What the frustration judge is told: the rubric, in the open. */
export const frustrationRubric =
  'Read the conversation between a person and an assistant. Score 1 when the person stays calm and gets what they came for without repeating themselves; 0 when they grow frustrated (repeating, complaining, giving up). Say why in one sentence.';

/** What the consistency judge is told: the rubric, in the open. */
export const consistencyRubric =
  'Read the conversation between a person and an assistant. Score 1 when every fact the assistant states (numbers, names, amounts, statuses, dates, promises) agrees with what it said in earlier turns and with what the person told it; 0 when it contradicts itself or the person from one turn to another. Name the first contradiction, or say there is none, in one sentence.';

/**
 * A model judges a whole conversation by `rubric`, read the transcript (`Person: …` and
 * `Assistant: …`, a line each), answering `{ score, reason }`; its run is traced beside the
 * case's, as `llmJudge`'s is.
 */
function transcriptJudge(name: string, rubric: string, model: LanguageModel): Scorer {
  const judge = agent({
    name,
    model,
    instructions: rubric,
    output: z.object({ score: z.number().min(0).max(1), reason: z.string() }),
  });
  return {
    name,
    async score({ output, runOptions }) {
      const { transcript } = conversed(name, output);
      const lines = transcript.map(
        entry => `${entry.role === 'user' ? 'Person' : 'Assistant'}: ${entry.text}`,
      );
      const result = await run(judge, lines.join('\n'), runOptions ?? {});
      if (result.stopReason !== 'completed' || result.output === undefined)
        throw new Error(`the judge did not answer (${result.stopReason})`);
      return result.output;
    },
  };
}

/** A model judges the person's frustration over the transcript (`frustrationRubric`). */
export function frustrationJudge({
  model,
  name = 'frustration',
}: {
  readonly model: LanguageModel;
  readonly name?: string;
}): Scorer {
  return transcriptJudge(name, frustrationRubric, model);
}

/**
 * A model judges whether the agent's facts hold across the turns (`consistencyRubric`): the same
 * order, amount or date said the same way from turn to turn, and nothing the person said denied.
 */
export function consistencyJudge({
  model,
  name = 'consistency',
}: {
  readonly model: LanguageModel;
  readonly name?: string;
}): Scorer {
  return transcriptJudge(name, consistencyRubric, model);
}
