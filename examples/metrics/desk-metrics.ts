/**
 * An eval of a refund desk with the agent metrics that need no judge and the two judges, whose
 * model (a real one, or a cassette replaying it) is given: the desk looks the order up, then
 * answers without refunding it, so the goal judge fails it while every argument is right.
 */
import { agent, run, tool, type LanguageModel } from '@agent-trace/core';
import {
  defineEval,
  goalSuccessJudge,
  noLoops,
  repeatedToolCalls,
  stepEfficiency,
  toolArgumentJudge,
  toolErrorRate,
  toolRecovery,
  type Scorer,
} from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import { z } from 'zod';

const lookup = tool({
  name: 'lookup',
  description: 'Look an order up',
  input: z.object({ order: z.string() }),
  execute: ({ order }) => ({ order, status: 'broken' }),
});

/** The desk as it is today: it looks the order up and says it is refunded. */
function desk() {
  return agent({
    name: 'desk',
    tools: [lookup],
    model: fakeLLM([
      { toolCalls: [{ name: 'lookup', args: { order: 'A-1' } }] },
      { text: 'Refunded.' },
    ]),
  });
}

/** The scorers: the metrics that need no judge, and the two judges. */
export function deskScorers(judge: LanguageModel): Scorer[] {
  return [
    stepEfficiency(),
    repeatedToolCalls(),
    noLoops(),
    toolErrorRate(),
    toolRecovery(),
    goalSuccessJudge({ model: judge }),
    toolArgumentJudge({ model: judge }),
  ];
}

/** The eval: one case, its recorded path as the reference of the step metrics. */
export function deskMetricsEval(judge: LanguageModel) {
  return defineEval<string>({
    name: 'desk-metrics',
    data: [
      {
        id: 'refund',
        input: 'Refund order A-1',
        expected: { trajectory: [{ tool: 'lookup' }, { tool: 'refund' }] },
      },
    ],
    task: (input: string, { runOptions }) => run(desk(), input, runOptions),
    scorers: deskScorers(judge),
  });
}
