import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeLLM } from '@agent-trace/testing';
import { readTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { defineEval } from '../define-eval.js';
import { runEval } from '../run-eval.js';
import { llmJudge } from './judge.js';
import { stepsAtMost } from './run-facts.js';

describe('llmJudge', () => {
  it("scores by the model's structured verdict, its run traced beside the task's and kept from the other scorers", async () => {
    const judgeModel = fakeLLM([{ text: '{"score":0.8,"reason":"polite, but no order number"}' }], {
      modelId: 'judge-model',
    });
    const traceDir = mkdtempSync(join(tmpdir(), 'agent-trace-judge-'));
    const result = await runEval(
      defineEval({
        name: 'polite',
        data: [
          { id: 'refund', input: 'Refund my order', expected: 'a polite answer naming the order' },
        ],
        task: () => 'Of course, your refund is on its way.',
        scorers: [
          llmJudge({ model: judgeModel, rubric: 'Polite, and names the order.' }),
          stepsAtMost(0), // the task ran no model: the judge's call is not counted
        ],
      }),
      { traceDir },
    );
    const [only] = result.cases;
    expect(only?.scores.judge).toEqual({ score: 0.8, reason: 'polite, but no order number' });
    expect(only?.scores.steps?.score).toBe(1);
    expect(judgeModel.calls[0]?.instructions).toContain('Polite, and names the order.');
    expect(judgeModel.calls[0]?.messages.at(-1)?.content).toBe(
      'Request: Refund my order\nExpected: a polite answer naming the order\nAnswer: Of course, your refund is on its way.',
    );
    const events = [];
    for await (const event of readTrace(only?.traceFile as string)) events.push(event);
    expect(events.filter(event => event.event === 'llm_end')).toMatchObject([
      { model: 'judge-model' },
    ]);
  });

  it('fails the score, saying why, when the judge does not answer with a verdict', async () => {
    const result = await runEval(
      defineEval({
        name: 'mute judge',
        data: [{ input: 'hi' }],
        task: () => 'hello',
        scorers: [
          llmJudge({
            model: fakeLLM([{ text: 'no JSON here' }, { text: 'still none' }, { text: 'nope' }]), // three tries: the first and two retries
            rubric: 'Friendly.',
          }),
        ],
      }),
    );
    expect(result.cases[0]?.scores.judge?.score).toBe(0);
    expect(result.cases[0]?.scores.judge?.reason).toMatch(
      /^the scorer failed: the judge did not answer \(output_decoding_failed/,
    );
  });
});
