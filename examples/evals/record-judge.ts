/**
 * Records the judge's cassette (judge.cassette.jsonl): every review the eval's two prompts give,
 * judged once. `--live` asks OpenAI's gpt-4o-mini (OPENAI_API_KEY); without it, the judge's
 * requests go through the same OpenAI adapter to a scripted OpenAI-compatible wire that checks the
 * rubric mechanically (the share of the expected problems and references the review names), which
 * is how the cassette in the repository was recorded: this repository's CI has no key.
 *
 *   npx -y pnpm@10 tsx examples/evals/record-judge.ts [--live]
 */
import { runEval } from '@agent-trace/evals';
import { openaiHandlers } from '@agent-trace/testing/msw';
import type { FakeScriptedStep } from '@agent-trace/testing';
import type { ModelRequest } from '@agent-trace/core';
import { setupServer } from 'msw/node';
import { judgeModel } from './judge.js';
import { hastyPrompt, reviewPrompt } from './prompts.js';
import { reviewEval } from './review-eval.js';

const live = process.argv.includes('--live');
const baseURL = 'http://judge.test/v1';

/** The scripted judge: scores a review by the share of the expected mentions it names. */
function rubricGrade(request: ModelRequest): FakeScriptedStep {
  const asked = request.messages.find(message => message.role === 'user')?.content ?? '';
  const expected = /^Expected: (.*)$/m.exec(asked)?.[1];
  const answer = asked.slice(asked.indexOf('Answer: ') + 'Answer: '.length);
  const mentions =
    expected === undefined
      ? []
      : ((JSON.parse(expected) as { mentions?: string[] }).mentions ?? []);
  const missing = mentions.filter(mention => !answer.includes(mention));
  const score = mentions.length === 0 ? 1 : (mentions.length - missing.length) / mentions.length;
  const reason =
    missing.length === 0
      ? 'The review names every problem and reference the rubric asks for.'
      : `The review leaves out ${missing.join(', ')}.`;
  return {
    text: JSON.stringify({ score: Math.round(score * 100) / 100, reason }),
    usage: { promptTokens: 180, completionTokens: 30 },
  };
}

const server = live
  ? undefined
  : setupServer(
      ...openaiHandlers(
        Array.from({ length: 200 }, () => rubricGrade),
        { baseURL },
      ),
    );
server?.listen({ onUnhandledRequest: 'error' });
try {
  // One judge for both prompts: a cassette being recorded starts its file anew once.
  const judge = judgeModel('record', live ? undefined : baseURL);
  for (const prompt of [reviewPrompt, hastyPrompt]) {
    const result = await runEval(reviewEval(prompt, { judge }), { concurrency: 1 });
    console.log(
      `recorded ${result.cases.length} judgements; judge mean ${result.means.judge?.toFixed(3)}`,
    );
  }
} finally {
  server?.close();
}
