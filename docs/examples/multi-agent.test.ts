// docs/guide/multi-agent.md: a router in front of a coordinator that delegates to one agent and
// hands off to another.
import { agent, handoff, run, tool } from '@agent-trace/core';
import { ruleRouter } from '@agent-trace/core/router';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';

const text = z.object({ text: z.string() });
const scoreRubric = tool({
  name: 'score_rubric',
  description: 'Scores a draft',
  input: text,
  execute: () => ({ total: 8 }),
});
const checkGrammar = tool({
  name: 'check_grammar',
  description: 'Finds grammar issues',
  input: text,
  execute: () => ({ issues: ["doubled word 'every'"] }),
});
// One scripted model for the coordinator, style and evaluator, in the order they call it.
const model = fakeLLM([
  { toolCalls: [{ name: 'ask_style', args: { input: 'Every every span.' } }] }, // coordinator
  { toolCalls: [{ name: 'check_grammar', args: { text: 'Every every span.' } }] }, // style
  { text: "Fix the doubled word 'every'." }, // style
  { toolCalls: [{ name: 'transfer_to_evaluator' }] }, // coordinator
  { toolCalls: [{ name: 'score_rubric', args: { text: 'Every span.' } }] }, // evaluator
  { text: 'Score 8/10.' }, // evaluator
]);
const billing = agent({
  name: 'billing',
  model: fakeLLM([{ text: 'Your refund is on its way.' }]),
});

const evaluator = agent({
  name: 'evaluator',
  description: 'Scores drafts',
  model,
  tools: [scoreRubric],
});
const style = agent({ name: 'style', model, tools: [checkGrammar] });
const coordinator = agent({
  name: 'coordinator',
  model,
  tools: [style.asTool()], // delegation that returns: the LLM calls ask_style
  handoffs: [
    handoff(evaluator, { description: 'Final scoring', inputFilter: messages => messages }),
  ],
});
const desk = ruleRouter([[/refund|charge/i, 'billing']], {
  agents: [billing, coordinator],
  fallback: 'coordinator',
});

it('routes by rule, delegates and hands off, the answer from the agent that finished', async () => {
  const refund = await run(desk, 'I want a refund');
  expect(refund).toMatchObject({ agent: 'billing', output: 'Your refund is on its way.' });

  const trace = memorySink();
  const review = await run(desk, 'Review my draft: Every every span.', { trace });
  expect(review).toMatchObject({ agent: 'evaluator', output: 'Score 8/10.' });
  expect(
    trace.events
      .filter(event => event.event === 'handoff_start')
      .map(event => [event.from, event.to, event.mode]),
  ).toEqual([
    ['router', 'coordinator', 'pass_control'],
    ['coordinator', 'style', 'return_to_caller'],
    ['coordinator', 'evaluator', 'pass_control'],
  ]);
});
