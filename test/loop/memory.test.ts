import { agent, run, tool, type Message } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const note = tool({
  name: 'note',
  description: 'Take a note',
  input: z.object({ n: z.number() }),
  execute: ({ n }) => `noted ${n}`,
});
const roles = (messages: readonly Message[]) =>
  messages.map(message =>
    message.role === 'tool' ? `tool:${message.content}` : `${message.role}:${message.content}`,
  );

describe('memory', () => {
  it('continues a conversation from the history of an earlier run', async () => {
    const first = await run(
      agent({ name: 'a', model: fakeLLM([{ text: 'Hi Ada.' }]) }),
      'I am Ada.',
    );
    const model = fakeLLM([{ text: 'You are Ada.' }]);
    const sink = memorySink();
    const second = await run(agent({ name: 'a', model }), 'Who am I?', {
      history: first.messages,
      trace: sink,
    });
    expect(roles(model.calls[0]!.messages)).toEqual([
      'user:I am Ada.',
      'assistant:Hi Ada.',
      'user:Who am I?',
    ]);
    expect(roles(second.messages)).toEqual([
      'user:I am Ada.',
      'assistant:Hi Ada.',
      'user:Who am I?',
      'assistant:You are Ada.',
    ]);
    expect(sink.events.find(event => event.event === 'agent_start')).toMatchObject({
      history_messages: 2,
    });
  });

  it('shows the model only the memory window, keeping the input and never splitting a tool call from its results', async () => {
    const model = fakeLLM([
      {
        toolCalls: [
          { name: 'note', args: { n: 1 } },
          { name: 'note', args: { n: 2 } },
        ],
      },
      { toolCalls: [{ name: 'note', args: { n: 3 } }] },
      { text: 'done' },
    ]);
    const history: Message[] = [
      { role: 'user', content: 'old question' },
      { role: 'assistant', content: 'old answer', toolCalls: [] },
    ];
    const sink = memorySink();
    await run(agent({ name: 'a', model, tools: [note], memory: { window: 3 } }), 'take notes', {
      history,
      trace: sink,
    });

    // Call 2: the last 3 messages are the call and its two results; the input is pinned before them.
    expect(roles(model.calls[1]!.messages)).toEqual([
      'user:take notes',
      'assistant:',
      'tool:noted 1',
      'tool:noted 2',
    ]);
    // Call 3: the last 3 would start at the result 'noted 2', whose call is outside: it is left out.
    expect(roles(model.calls[2]!.messages)).toEqual([
      'user:take notes',
      'assistant:',
      'tool:noted 3',
    ]);
    const starts = sink.events.filter(event => event.event === 'llm_start');
    expect(starts.map(event => event.message_count)).toEqual([3, 4, 3]);
  });

  it('never begins a window with an orphaned tool result', async () => {
    const model = fakeLLM([
      {
        toolCalls: [
          { name: 'note', args: { n: 1 } },
          { name: 'note', args: { n: 2 } },
        ],
      },
      { text: 'done' },
    ]);
    await run(agent({ name: 'a', model, tools: [note], memory: { window: 2 } }), 'go');
    const shown = model.calls[1]!.messages;
    expect(shown[0]).toMatchObject({ role: 'user', content: 'go' });
    expect(shown.slice(1).every(message => message.role !== 'tool')).toBe(true);
  });

  it('carries at most maxItems messages, pairs kept whole', async () => {
    const history: Message[] = [
      { role: 'user', content: 'q1' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ callId: 'c1', toolName: 'note', argumentsText: '{"n":1}' }],
      },
      { role: 'tool', callId: 'c1', toolName: 'note', content: 'noted 1', isError: false },
      { role: 'assistant', content: 'a1', toolCalls: [] },
    ];
    const model = fakeLLM([{ text: 'a2' }]);
    const result = await run(
      agent({ name: 'a', model, tools: [note], memory: { maxItems: 2 } }),
      'q2',
      { history },
    );
    expect(roles(model.calls[0]!.messages)).toEqual(['assistant:a1', 'user:q2']);
    expect(roles(result.messages)).toEqual(['user:q2', 'assistant:a2']);
  });
});
