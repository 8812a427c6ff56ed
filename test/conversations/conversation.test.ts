/**
 * Conversations: one run a turn, recorded with the conversation's id, the turn's index and what
 * the turns before left; rerun turn by turn (a divergence named by its turn), and gone on with in
 * another process from the trace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TraceEvent } from '@agent-trace/core';
import { conversation } from '@agent-trace/core/conversation';
import { fakeLLM } from '@agent-trace/testing';
import {
  conversationFromTrace,
  jsonlSink,
  memorySink,
  readTrace,
  rerunConversation,
  validateTrace,
} from '@agent-trace/trace';
import { afterAll, describe, expect, it } from 'vitest';
import { customerTurns, orderDesk } from '../../examples/conversations/desk.js';

const desk = orderDesk;
const messages = customerTurns;

/** A desk whose model answers only from a recording. */
const replaying = (maxSteps = 5) => desk(fakeLLM([], { allowUnusedSteps: true }), maxSteps);

async function recorded(): Promise<TraceEvent[]> {
  const trace = memorySink();
  const chat = conversation(desk(), { trace, id: 'chat-1' });
  for (const message of messages) await chat.send(message);
  return trace.events;
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('a conversation', () => {
  it('records each turn as a run of the conversation, starting from what the turns before left', async () => {
    const trace = memorySink();
    const chat = conversation(desk(), { trace, id: 'chat-1' });
    const first = await chat.send(messages[0]);
    const second = await chat.send(messages[1]);
    expect(first.output).toBe('Order 42 arrived broken. A refund or a new one?');
    expect(second.output).toBe('Refunded order 42; order 43 has shipped.');
    expect(chat.turnCount).toBe(2);
    expect(chat.messages).toBe(second.messages);
    const starts = trace.events.filter(event => event.event === 'run_start');
    expect(starts.map(start => [start.session, start.conversation])).toEqual([
      ['chat-1', { id: 'chat-1', turn: 1 }],
      ['chat-1', { id: 'chat-1', turn: 2, carried: 0 }],
    ]);
    // The second turn starts from the first turn's whole conversation (the first had no history).
    expect(starts[1]?.history?.map(message => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(validateTrace(trace.events).valid).toBe(true);
  });

  it('takes one turn at a time, and counts a streamed turn once it ends', async () => {
    const chat = conversation(desk());
    const turn = chat.stream(messages[0]);
    await expect(chat.send(messages[1])).rejects.toThrow(
      /is taking turn 1: await its result before the next turn/,
    );
    for await (const chunk of turn) void chunk;
    expect((await turn.result).stopReason).toBe('completed');
    expect(chat.turns).toHaveLength(1);
    expect((await chat.send(messages[1])).stopReason).toBe('completed');
    expect(chat.turnCount).toBe(2);
  });

  it('reruns unchanged as the same, turn by turn, with no model call', async () => {
    const events = await recorded();
    const report = await rerunConversation(events, replaying());
    expect(report.same).toBe(true);
    expect(report.turns.map(turn => [turn.turn, turn.report.same])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    expect(report.result?.output).toBe('You are welcome.');
  });

  it('names the turn a change first shows at, of how many', async () => {
    const events = await recorded();
    // Two model calls a turn are enough for the first turn, not for the second.
    const report = await rerunConversation(events, replaying(2));
    expect(report.same).toBe(false);
    expect(report.firstDivergence).toMatchObject({ turn: 2, of: 3 });
    expect(report.turns[0]?.report.same).toBe(true);
    expect(report.firstDivergence?.divergence.actual).toMatch(/max_steps/);
  });

  it('goes on in another process from its trace, and the whole conversation reruns as the same', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-conversation-'));
    folders.push(folder);
    const file = join(folder, 'chat.jsonl');
    const firstProcess = conversation(desk(), { trace: jsonlSink(file), id: 'chat-2' });
    await firstProcess.send(messages[0]);
    await firstProcess.send(messages[1]);
    // Another process: the desk's model answers only the new turn.
    const later = desk(fakeLLM([{ text: 'You are welcome.' }]));
    const chat = await conversationFromTrace(file, later, { trace: jsonlSink(file) });
    expect(chat.id).toBe('chat-2');
    expect(chat.turnCount).toBe(2);
    const third = await chat.send(messages[2]);
    expect(third.output).toBe('You are welcome.');
    const events: TraceEvent[] = [];
    for await (const event of readTrace(file)) events.push(event);
    const starts = events.filter(event => event.event === 'run_start');
    expect(starts.map(start => start.conversation?.turn)).toEqual([1, 2, 3]);
    expect((await rerunConversation(file, replaying())).same).toBe(true);
    // A desk that does not take the recorded turns as they were taken is refused, by turn.
    await expect(conversationFromTrace(file, replaying(2))).rejects.toThrow(
      /Conversation 'chat-2' does not go on as recorded: turn 2 of 3 diverges/,
    );
  });
});
