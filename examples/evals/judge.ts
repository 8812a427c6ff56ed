import { fileURLToPath } from 'node:url';
import type { LanguageModel } from '@agent-trace/core';
import type { CacheMode } from '@agent-trace/core/cache';
import { openai } from '@agent-trace/core/openai';
import { llmJudge } from '@agent-trace/evals';
import { withCassette } from '@agent-trace/testing';

/** The judge's recorded answers: one line per request it was asked. */
export const judgeCassette = fileURLToPath(new URL('judge.cassette.jsonl', import.meta.url));

/** What the judge holds a review to. */
export const rubric = [
  'A good review names every grammar problem of the draft (doubled words, double spaces).',
  'When the request names a topic with known references, it says which references to cite.',
  'It invents no problems and no references.',
].join('\n');

/**
 * The judge's model: OpenAI's gpt-4o-mini, answering from the cassette. In `replay` (the default,
 * and always under CI) nothing is sent: a request the cassette lacks fails and names the closest
 * recorded one. `record-judge.ts` records it.
 */
export function judgeModel(mode: CacheMode = 'replay', baseURL?: string): LanguageModel {
  const model = openai('gpt-4o-mini', {
    // Replaying sends nothing, so no key is needed then.
    apiKey: process.env.OPENAI_API_KEY || 'replay-only',
    ...(baseURL === undefined ? {} : { baseURL }),
  });
  return withCassette(model, judgeCassette, { mode });
}

/** The judge scorer: a model scores each review against the rubric. */
export const reviewJudge = (model: LanguageModel = judgeModel()) =>
  llmJudge({ model, rubric, name: 'judge' });
