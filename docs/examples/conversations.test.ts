// docs/guide/conversations.md: a conversation with an agent, rerun turn by turn, gone on with from
// its trace in another process, and held with a simulated user.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversation } from '@agent-trace/core/conversation';
import { fakeLLM } from '@agent-trace/testing';
import {
  askedAgain,
  converse,
  conversationTask,
  conversationToolSuccess,
  defineEval,
  goalReached,
  runEval,
  simulatedUser,
  turnsToResolution,
} from '@agent-trace/evals';
import {
  conversationFromTrace,
  jsonlSink,
  memorySink,
  rerunConversation,
} from '@agent-trace/trace';
import { afterAll, expect, it } from 'vitest';
import { customerTurns, orderDesk } from '../../examples/conversations/desk.js';

const folder = mkdtempSync(join(tmpdir(), 'agent-trace-docs-conversations-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const file = join(folder, 'chat.jsonl');

it('takes turns, each a run that starts from what the turns before left', async () => {
  const desk = orderDesk();
  const chat = conversation(desk, { trace: jsonlSink(file) });
  await chat.send('My order 42 arrived broken.');
  const second = await chat.send('A refund, and where is 43?');
  expect(second.output).toBe('Refunded order 42; order 43 has shipped.');
  expect(chat.turnCount).toBe(2);
});

it('reruns the recorded conversation turn by turn, and names the turn a change shows at', async () => {
  const replaying = orderDesk(fakeLLM([], { allowUnusedSteps: true }));
  const report = await rerunConversation(file, replaying);
  expect(report.same).toBe(true);
  const strict = orderDesk(fakeLLM([], { allowUnusedSteps: true }), 2);
  const changed = await rerunConversation(file, strict);
  expect(changed.firstDivergence).toMatchObject({ turn: 2, of: 2 });
});

it('goes on from the trace in another process', async () => {
  const desk = orderDesk(fakeLLM([{ text: 'You are welcome.' }]));
  const chat = await conversationFromTrace(file, desk, { trace: jsonlSink(file) });
  const third = await chat.send('Thanks!');
  expect(third.output).toBe('You are welcome.');
  expect(chat.turnCount).toBe(customerTurns.length);
});

it('holds a conversation with a simulated user, the same every time', async () => {
  const customer = simulatedUser({
    name: 'ana',
    persona: 'Ana, whose order 42 arrived broken.',
    goal: 'a refund for order 42',
    model: fakeLLM([{ text: 'My order 42 arrived broken.' }, { text: 'DONE' }]),
  });
  const held = await converse(orderDesk(), customer, { trace: memorySink(), maxTurns: 8 });
  expect(held.stopReason).toBe('goal_reached');
  expect(held.transcript.map(entry => entry.role)).toEqual(['user', 'agent']);
});

it('evaluates conversations: each case a persona, scored by what the conversation did', async () => {
  const personas = [
    { id: 'ana', input: { name: 'ana', says: 'My order 42 arrived broken.', wants: '42 arrived' } },
    { id: 'bo', input: { name: 'bo', says: 'Where is order 43?', wants: '43 has shipped' } },
  ];
  const desk = conversationsEval(personas);
  const result = await runEval(desk);
  expect(result.means.goal_reached).toBe(1);
});

/** A customer: their name, what they say, and what the desk must tell them. */
interface Persona {
  readonly name: string;
  readonly says: string;
  readonly wants: string;
}

/** An eval of the desk's conversations with the personas: scripted customers, so no key. */
function conversationsEval(personas: readonly { id: string; input: Persona }[]) {
  return defineEval({
    name: 'desk conversations',
    data: personas,
    // One desk, one scripted model: the cases take its answers in turn.
    concurrency: 1,
    task: conversationTask(
      orderDesk(),
      (persona: Persona) =>
        simulatedUser({
          name: persona.name,
          script: [persona.says],
          stopWhen: transcript => transcript.some(entry => entry.text.includes(persona.wants)),
        }),
      { maxTurns: 4 },
    ),
    scorers: [
      goalReached(),
      turnsToResolution({ maxTurns: 4 }),
      conversationToolSuccess(),
      askedAgain(),
    ],
  });
}
