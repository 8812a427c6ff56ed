/**
 * Multi-turn evals: each case a persona with a goal, its task a conversation with a simulated
 * user, scored by what the whole conversation did; a planted regression is named by persona.
 */
import type { LanguageModel } from '@agent-trace/core';
import {
  askedAgain,
  belowThreshold,
  compareEvals,
  comparisonJUnit,
  consistencyJudge,
  consistencyRubric,
  comparisonMarkdown,
  conversationTask,
  conversationToolSuccess,
  defineEval,
  frustrationJudge,
  goalReached,
  perTurn,
  runEval,
  scorer,
  simulatedUser,
  turnsToResolution,
} from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import { describe, expect, it } from 'vitest';
import { orderDesk } from '../../examples/conversations/desk.js';

/**
 * A persona: who they are, what they say (a scripted model plays them), and what the desk must
 * tell them for their goal to be reached.
 */
interface Persona {
  readonly name: string;
  readonly says: readonly string[];
  readonly wants: string;
}

const personas: readonly { id: string; input: Persona }[] = [
  {
    id: 'ana',
    input: { name: 'ana', says: ['My order 42 arrived broken.', 'GIVE UP'], wants: '42 arrived' },
  },
  {
    id: 'bo',
    input: {
      name: 'bo',
      says: ['Where is order 43?', 'Where is order 43?', 'GIVE UP'],
      wants: '43 has shipped',
    },
  },
  { id: 'cy', input: { name: 'cy', says: ['Hello?', 'Hello?', 'GIVE UP'], wants: 'never said' } },
];

/** The desk's answers, by what the customer said: today's, or a regressed one for order 43. */
function deskModel(regressed = false): LanguageModel {
  return fakeLLM([], {
    onUnexpectedCall: request => {
      const last = request.messages.at(-1);
      if (last?.role === 'tool')
        return {
          text: `Order ${last.content.includes('43') ? '43 has shipped' : '42 arrived broken'}.`,
        };
      const said = last?.role === 'user' ? last.content : '';
      const id = /\b(4\d)\b/.exec(said)?.[1];
      if (id === undefined) return { text: 'How can I help?' };
      if (regressed && id === '43') return { text: 'I cannot help with that.' };
      return { toolCalls: [{ name: 'order', args: { id: Number(id) } }] };
    },
  });
}

const userFor = (persona: Persona) =>
  simulatedUser({
    name: persona.name,
    persona: `${persona.name}, a customer`,
    goal: 'news of an order',
    model: fakeLLM(
      persona.says.map(text => ({ text })),
      { allowUnusedSteps: true },
    ),
    stopWhen: transcript =>
      transcript.some(entry => entry.role === 'agent' && entry.text.includes(persona.wants)),
  });

const deskEval = (regressed = false) =>
  defineEval<Persona, unknown, unknown>({
    name: 'desk conversations',
    data: personas,
    task: conversationTask(orderDesk(deskModel(regressed)), userFor, { maxTurns: 4 }),
    scorers: [
      goalReached(),
      turnsToResolution({ maxTurns: 4 }),
      conversationToolSuccess(),
      askedAgain(),
      perTurn(scorer('answered', ({ output }) => typeof output === 'string' && output !== '')),
    ],
  });

describe('a multi-turn eval', () => {
  it('scores each persona by what the whole conversation did', async () => {
    const result = await runEval(deskEval());
    const scores = Object.fromEntries(
      result.cases.map(each => [
        each.id,
        Object.fromEntries(Object.entries(each.scores).map(([name, s]) => [name, s.score])),
      ]),
    );
    expect(scores.ana).toMatchObject({
      goal_reached: 1,
      turns_to_resolution: 1,
      conversation_tool_success: 1,
    });
    expect(scores.bo).toMatchObject({ goal_reached: 1 });
    // Cy asked twice and gave up: the desk asked the same question twice.
    expect(scores.cy).toMatchObject({ goal_reached: 0, turns_to_resolution: 0, asked_again: 0.5 });
    expect(scores.cy?.answered_per_turn).toBe(1);
    // A failing case's transcript is in the gate's words.
    expect(belowThreshold(result, 'goal_reached', 1)).toContain(
      '  cy#1: 0 (the conversation ended user gave up)\n      user: Hello?\n      agent: How can I help?',
    );
  });

  it('names exactly the personas a planted regression broke', async () => {
    const baseline = await runEval(deskEval());
    const candidate = await runEval(deskEval(true));
    const comparison = compareEvals(baseline, candidate);
    const goal = comparison.scorers.find(each => each.scorer === 'goal_reached');
    expect(goal?.regressed.map(each => each.id)).toEqual(['bo']);
    // The reports show the broken conversation's transcript under its line.
    const compared = [{ eval: 'desk conversations', baseline: 'a', candidate: 'b', comparison }];
    expect(comparisonMarkdown(compared)).toContain(
      [
        '- ❌ **bo** (goal_reached): 1 → 0: the conversation ended user gave up',
        '  <details><summary>transcript</summary>',
        '',
        '  - user: Where is order 43?',
        '  - agent: I cannot help with that.',
      ].join('\n'),
    );
    expect(comparisonJUnit(compared)).toContain(
      'the conversation ended user gave up\n\ntranscript:\nuser: Where is order 43?\nagent: I cannot help with that.',
    );
  });

  it('judges whether the facts the agent states hold across the turns, its rubric in the open', async () => {
    // A judge that reads the transcript it is sent: an order said to be in two states contradicts.
    const judge = consistencyJudge({
      model: fakeLLM([], {
        onUnexpectedCall: call => {
          const last = call.messages.at(-1);
          const said = last?.role === 'user' ? last.content : '';
          const states = new Map<string, string>();
          for (const [, id, state] of said.matchAll(/Assistant: Order (\d+) (.+?)\./g)) {
            const before = states.get(id!);
            if (before !== undefined && before !== state)
              return {
                text: JSON.stringify({ score: 0, reason: `order ${id}: ${before}, then ${state}` }),
              };
            states.set(id!, state!);
          }
          return { text: JSON.stringify({ score: 1, reason: 'no contradiction' }) };
        },
      }),
    });
    const says = (answers: readonly string[]) =>
      conversationTask(orderDesk(fakeLLM(answers.map(text => ({ text })))), () =>
        simulatedUser({ script: ['Where is 43?', 'Sure?'] }),
      );
    const held = (answers: readonly string[]) =>
      runEval({
        name: 'consistency',
        data: [{ id: 'bo', input: {} }],
        task: says(answers),
        scorers: [judge],
      });
    const steady = await held(['Order 43 has shipped.', 'Order 43 has shipped.']);
    expect(steady.cases[0]?.scores.consistency).toEqual({ score: 1, reason: 'no contradiction' });
    const torn = await held(['Order 43 has shipped.', 'Order 43 is still in the warehouse.']);
    expect(torn.cases[0]?.scores.consistency).toEqual({
      score: 0,
      reason: 'order 43: has shipped, then is still in the warehouse',
    });
    expect(consistencyRubric).toContain('contradicts itself or the person');
  });

  it("judges the person's frustration over the transcript, its rubric in the open", async () => {
    const judge = frustrationJudge({
      model: fakeLLM([], {
        onUnexpectedCall: () => ({ text: '{"score":0.2,"reason":"repeats Hello"}' }),
      }),
    });
    const result = await runEval({ ...deskEval(), scorers: [judge] });
    expect(result.cases.map(each => each.scores.frustration?.score)).toEqual([0.2, 0.2, 0.2]);
  });
});
