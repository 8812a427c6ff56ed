import { agentTraceTelemetry, aiSdkModel } from '@agent-trace/ai-sdk';
import { fakeLLM } from '@agent-trace/testing';
import { generateText } from 'ai';
import { expect, it } from 'vitest';
import { defineEval } from '../define-eval.js';
import { runEval } from '../run-eval.js';
import { stopReasonIs } from './run-facts.js';

it("reads a bridged agent's stop from its trace: an AI SDK task that completed scores 1", async () => {
  const result = await runEval(
    defineEval<string>({
      name: 'ai-sdk greeter',
      data: [{ id: 'hi', input: 'Hi' }],
      task: async (input, { runOptions }) => {
        const telemetry = agentTraceTelemetry({ trace: runOptions.trace! });
        const { text } = await generateText({
          model: aiSdkModel(fakeLLM([{ text: 'Hello!' }])),
          prompt: input,
          telemetry: { integrations: [telemetry], functionId: 'greeter' },
        });
        await telemetry.flush();
        return text;
      },
      scorers: [stopReasonIs('completed')],
    }),
  );
  expect(result.cases[0]!.scores.stop_reason).toEqual({
    score: 1,
    reason: 'the run stopped: completed',
  });
});
