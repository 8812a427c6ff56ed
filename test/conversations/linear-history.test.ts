/**
 * A conversation's trace grows with its turns, not with their square: each turn's `run_start`
 * records only what its history adds to the previous turn's (`conversation.carried`), and its
 * first request only what follows the history (`from_history`). Readers join them again: a rerun,
 * a turn taken out of its trace, the OTLP spans' whole requests.
 */
import { resourceFromAttributes } from '@opentelemetry/resources';
import { agent, run, type TraceEvent, type TraceEventOf } from '@agent-trace/core';
import { conversation } from '@agent-trace/core/conversation';
import { RunHistories, toTraceMessage } from '@agent-trace/core/record';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, rerunConversation, rerunTrace, validateTrace } from '@agent-trace/trace';
import { SpanBuilder } from '@agent-trace/trace/otlp';
import { describe, expect, it } from 'vitest';

/** An agent that answers every turn in one model call. */
const chatty = (turns: number) =>
  agent({
    name: 'chatty',
    instructions: 'Answer briefly.',
    model: fakeLLM(
      Array.from({ length: turns }, (_, index) => ({ text: `answer ${index + 1}` })),
      { allowUnusedSteps: true },
    ),
  });

const replaying = () => chatty(0);

async function recorded(turns: number) {
  const trace = memorySink();
  const chat = conversation(chatty(turns), { trace, id: 'long' });
  for (let index = 1; index <= turns; index++) await chat.send(`question ${index}`);
  return { events: trace.events, chat };
}

const runStarts = (events: readonly TraceEvent[]) =>
  events.filter((event): event is TraceEventOf<'run_start'> => event.event === 'run_start');

const bytes = (events: readonly TraceEvent[]) =>
  events.reduce((sum, event) => sum + JSON.stringify(event).length, 0);

describe("a conversation's recorded history", () => {
  it('records what each turn adds, and joins back to the whole history each turn started from', async () => {
    const { events, chat } = await recorded(4);
    const starts = runStarts(events);
    expect(starts.map(start => start.conversation?.carried)).toEqual([undefined, 0, 2, 4]);
    // Turn 3 records the second turn's question and answer, not the first turn's again.
    expect(starts[2]?.history?.map(message => message.content)).toEqual(['question 2', 'answer 2']);
    const histories = new RunHistories();
    const whole = starts.map(start => histories.of(start)?.map(message => message.content));
    expect(whole[3]).toEqual([
      'question 1',
      'answer 1',
      'question 2',
      'answer 2',
      'question 3',
      'answer 3',
    ]);
    // The last turn's whole history is what the turn before it left.
    expect(new RunHistories().of(starts[0]!)).toEqual([]);
    expect(joined(starts, 3)).toEqual(chat.turns[2]?.messages.map(toTraceMessage));
    expect(validateTrace(events).valid).toBe(true);
  });

  it("records the first request of a turn as what follows its history, the whole request's hash kept", async () => {
    const { events } = await recorded(3);
    const firsts = events.filter(
      (event): event is TraceEventOf<'llm_start'> => event.event === 'llm_start',
    );
    expect(firsts.map(start => [start.from_history, start.message_count])).toEqual([
      [undefined, 1],
      [2, 3],
      [4, 5],
    ]);
    expect(firsts[2]?.messages.map(message => message.content)).toEqual(['question 3']);
    // A run given its history as a whole, out of any conversation, records it the same way.
    const alone = memorySink();
    const history = [
      { role: 'user' as const, content: 'earlier' },
      { role: 'assistant' as const, content: 'noted', toolCalls: [] },
    ];
    await run(chatty(1), 'now', { trace: alone, history });
    const start = alone.events.find(event => event.event === 'llm_start');
    expect(start).toMatchObject({ from_history: 2, message_count: 3 });
    expect((await rerunTrace(alone.events, replaying())).same).toBe(true);
  });

  it('grows linearly with the turns: 80 turns are about twice 40', async () => {
    const forty = bytes((await recorded(40)).events);
    const eighty = bytes((await recorded(80)).events);
    expect(eighty / forty).toBeGreaterThan(1.9);
    expect(eighty / forty).toBeLessThan(2.2);
  });

  it('reruns the same, as a conversation and one turn taken out of its trace', async () => {
    const { events } = await recorded(5);
    const written = memorySink();
    const rerun = await rerunConversation(events, replaying(), { run: { trace: written } });
    expect(rerun.same).toBe(true);
    expect(rerun.turns).toHaveLength(5);
    // The rerun's trace records its turns the same way from its second turn's rerun on (the
    // first rerun turn started from the recording's history); its report's events read alone.
    expect(runStarts(written.events).map(start => start.conversation?.carried)).toEqual([
      undefined,
      undefined,
      2,
      4,
      6,
    ]);
    const lastRerun = runStarts(rerun.turns[4]!.report.rerun)[0];
    expect(lastRerun?.conversation).toEqual({ id: 'long', turn: 5 });
    expect(lastRerun?.history).toHaveLength(8);
    // One turn, from the whole trace: its history is joined from the turns before it.
    const fourth = runStarts(events)[3]!;
    expect((await rerunTrace(events, replaying(), { runId: fourth.run })).same).toBe(true);
    // One turn taken out alone, as a library's regress takes it: whole() makes it read alone.
    const histories = new RunHistories();
    const alone = events.map(event =>
      event.event === 'run_start' ? histories.whole(event) : event,
    );
    const own = alone.filter(event => event.run === fourth.run);
    expect(runStarts(own)[0]?.conversation).toEqual({ id: 'long', turn: 4 });
    expect((await rerunTrace(own, replaying())).same).toBe(true);
  });

  it('says what is missing when a turn is rerun without the turns before it', async () => {
    const { events } = await recorded(3);
    const third = runStarts(events)[2]!;
    const own = events.filter(event => event.run === third.run);
    await expect(rerunTrace(own, replaying())).rejects.toThrow(
      /is turn 3 of conversation 'long', and its history goes on from turn 2's, which this trace does not hold/,
    );
  });

  it("exports each turn's first request whole over OTLP", async () => {
    const { events } = await recorded(3);
    const builder = new SpanBuilder({
      captureContent: true,
      maxAttributeLength: 65_536,
      resource: resourceFromAttributes({ 'service.name': 'linear-history' }),
    });
    const chats = events
      .flatMap(event => builder.accept(event) ?? [])
      .filter(span => span.name.startsWith('chat '));
    const sent = chats.map(span =>
      (
        JSON.parse(String(span.attributes['gen_ai.input.messages'])) as {
          parts: { content?: string }[];
        }[]
      ).map(message => message.parts[0]?.content),
    );
    expect(sent[2]).toEqual(['question 1', 'answer 1', 'question 2', 'answer 2', 'question 3']);
  });

  it('refuses a carried count its history cannot hold', async () => {
    await expect(
      run(chatty(1), 'hi', { conversation: { id: 'c', turn: 2, carried: 3 } }),
    ).rejects.toThrow(
      /conversation.carried counts the first messages of history.*0 to 0 \(actual: 3\)/,
    );
  });
});

/** The whole history the turn at index `index` started from, joined from the starts up to it. */
function joined(starts: readonly TraceEventOf<'run_start'>[], index: number) {
  const histories = new RunHistories();
  let whole: readonly unknown[] | undefined;
  for (const start of starts.slice(0, index + 1)) whole = histories.of(start);
  return whole;
}
