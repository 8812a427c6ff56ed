/**
 * A conversation held by `converse()` with a simulated user played by a model: the user's replies
 * are runs of their own in the trace (`conversation.role: 'user'`), beside the desk's turns. A
 * rerun replays what the user said and reruns the desk's turns only, through the API and through
 * `agent-trace rerun`.
 */
import { converse, simulatedUser } from '@agent-trace/evals';
import { jsonlSink } from '@agent-trace/trace';
import { expect } from 'vitest';
import { script } from '../harness/plant.js';
import type { Shape } from '../harness/shape.js';
import { build, conversationChecks } from './conversation.js';

/** The customer: the conversation's three messages, then done. */
const customer = () =>
  simulatedUser({
    name: 'ana',
    persona: 'Ana, who has two orders on the way.',
    goal: 'news of orders 42 and 43',
    model: script([
      { text: 'Is order 42 here?' },
      { text: 'And order 43?' },
      { text: 'Thanks!' },
      { text: 'DONE' },
    ]),
  });

export const shape: Shape = {
  name: 'a conversation held with a simulated user (converse)',
  module: 'test/conformance/shapes/simulated-user.ts',
  record: async file => {
    const trace = jsonlSink(file);
    try {
      await converse(build(), customer(), { trace, id: 'chat-ana' });
    } finally {
      await trace.close();
    }
  },
  ...conversationChecks,
  userRuns: 4,
  holds: events => {
    const starts = events.flatMap(event => (event.event === 'run_start' ? [event] : []));
    expect(starts.map(start => `${start.agent} ${start.conversation?.turn}`)).toEqual([
      'user-ana 1',
      'desk 1',
      'user-ana 2',
      'desk 2',
      'user-ana 3',
      'desk 3',
      'user-ana 4',
    ]);
  },
};

export default build();
