/**
 * Simulated users: a user played by a model or a script holds a conversation with an agent;
 * the user's replies are in the same trace, marked as the user's, and never in the agent's usage;
 * a FakeLLM user and agent give the same transcript every time, and the conversation reruns as
 * the same.
 */
import { agent, type TraceEvent } from '@agent-trace/core';
import { converse, simulatedUser, userInstructions } from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, rerunConversation, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { orderDesk } from '../../examples/conversations/desk.js';

/** A customer played by a scripted model: two messages, then done. */
const customer = () =>
  simulatedUser({
    name: 'ana',
    persona: 'Ana, whose order 42 arrived broken.',
    goal: 'a refund for order 42, and news of order 43',
    model: fakeLLM(
      [
        { text: 'My order 42 arrived broken.' },
        { text: 'A refund, and where is 43?' },
        { text: 'DONE' },
      ],
      { modelId: 'customer-model' },
    ),
  });

async function held() {
  const trace = memorySink();
  const result = await converse(orderDesk(), customer(), { trace, id: 'sim-1' });
  return { result, events: trace.events };
}

describe('a simulated user', () => {
  it('holds a conversation until its goal is reached: the same transcript every time', async () => {
    const first = await held();
    expect(first.result.stopReason).toBe('goal_reached');
    expect(
      first.result.transcript.map(entry => `${entry.turn} ${entry.role}: ${entry.text}`),
    ).toEqual([
      '1 user: My order 42 arrived broken.',
      '1 agent: Order 42 arrived broken. A refund or a new one?',
      '2 user: A refund, and where is 43?',
      '2 agent: Refunded order 42; order 43 has shipped.',
    ]);
    expect((await held()).result.transcript).toEqual(first.result.transcript);
  });

  it("keeps the user's replies in the trace as the user's, apart from the agent's usage", async () => {
    const { result, events } = await held();
    expect(validateTrace(events).valid).toBe(true);
    const starts = events.filter(
      (event): event is Extract<TraceEvent, { event: 'run_start' }> => event.event === 'run_start',
    );
    expect(starts.map(start => [start.agent, start.conversation])).toEqual([
      ['user-ana', { id: 'sim-1', turn: 1, role: 'user' }],
      ['desk', { id: 'sim-1', turn: 1 }],
      ['user-ana', { id: 'sim-1', turn: 2, role: 'user' }],
      ['desk', { id: 'sim-1', turn: 2, carried: 0 }],
      ['user-ana', { id: 'sim-1', turn: 3, role: 'user' }],
    ]);
    // The user's model calls are counted as the user's, never as the agent's.
    const userRuns = new Set(
      starts.filter(start => start.conversation?.role === 'user').map(start => start.run),
    );
    const tokens = (own: boolean) =>
      events.reduce(
        (sum, event) =>
          event.event === 'llm_end' && userRuns.has(event.run) === own
            ? sum + event.tok_prompt
            : sum,
        0,
      );
    expect(result.userUsage.promptTokens).toBe(tokens(true));
    expect(result.usage.promptTokens).toBe(tokens(false));
    expect(tokens(true)).toBeGreaterThan(0);
    // The conversation reruns against the desk as the same, the user's replies replayed.
    const rerun = await rerunConversation(
      events,
      orderDesk(fakeLLM([], { allowUnusedSteps: true })),
    );
    expect(rerun.same).toBe(true);
    expect(rerun.turns).toHaveLength(2);
  });

  it('tells its model who it is and how to stop, in the open', () => {
    expect(userInstructions('Ana.', 'a refund')).toContain(
      'When you have what you wanted, answer exactly DONE.',
    );
  });

  it('is played by a script: a list of messages, or a function of the last reply', async () => {
    const listed = await converse(
      orderDesk(),
      simulatedUser({ script: ['My order 42 arrived broken.'] }),
    );
    expect(listed.stopReason).toBe('goal_reached');
    expect(listed.turns).toHaveLength(1);
    const answering = await converse(
      orderDesk(),
      simulatedUser({
        script: (last, turn) =>
          turn === 1
            ? 'My order 42 arrived broken.'
            : last?.includes('refund')
              ? 'A refund, and where is 43?'
              : undefined,
        stopWhen: transcript => transcript.some(entry => entry.text.includes('shipped')),
      }),
    );
    expect(answering.stopReason).toBe('goal_reached');
    expect(answering.turns).toHaveLength(2);
  });

  it('stops at max turns, when the user gives up, and when the agent fails', async () => {
    const chatty = simulatedUser({ script: () => 'Hello?' });
    const echo = agent({
      name: 'echo',
      model: fakeLLM([], { onUnexpectedCall: () => ({ text: 'Hi.' }) }),
    });
    expect((await converse(echo, chatty, { maxTurns: 3 })).stopReason).toBe('max_turns');
    const giving = simulatedUser({ name: 'bo', model: fakeLLM([{ text: 'GIVE UP' }]) });
    expect((await converse(echo, giving)).stopReason).toBe('user_gave_up');
    const broken = agent({ name: 'broken', model: fakeLLM([{ error: { status: 400 } }]) });
    const failed = await converse(broken, chatty);
    expect(failed).toMatchObject({ stopReason: 'agent_error', agentStop: 'error' });
  });

  it('needs a model or a script, not both', () => {
    expect(() => simulatedUser({ name: 'x' })).toThrow(/needs a model to play it or a script/);
  });
});
