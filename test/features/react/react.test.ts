import { agent, run, stream, tool, type Chunk } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deterministic } from '../../support/deterministic.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const action = (thought: string, name: string, input: string) =>
  `Thought: ${thought}\nAction: ${name}\nAction Input: ${input}`;

describe('ReAct mode', () => {
  it('describes the tools in text, runs a parsed action as a tool call and answers with the Final Answer', async () => {
    const model = fakeLLM([
      { text: action('I need the sum.', 'add', '{"a": 2, "b": 3}') },
      { text: 'Thought: I know it now.\nFinal Answer: 2 + 3 = 5' },
    ]);
    const sink = memorySink();
    const result = await run(
      agent({ name: 'calc', instructions: 'Do sums.', model, tools: [add], toolCalling: 'react' }),
      'What is 2 + 3?',
      { trace: sink, ...deterministic() },
    );

    expect(result.stopReason).toBe('completed');
    expect(result.output).toBe('2 + 3 = 5');
    const [first, second] = model.calls;
    expect(first?.toolNames).toEqual([]);
    expect(first?.stopSequences).toEqual(['\nObservation:']);
    expect(first?.instructions).toContain('Do sums.');
    expect(first?.instructions).toContain('- add: Add two numbers');
    expect(first?.instructions).toContain('"required":["a","b"]');
    expect(second?.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: action('I need the sum.', 'add', '{"a": 2, "b": 3}'),
        toolCalls: [],
      },
      { role: 'user', content: 'Observation: 5' },
    ]);
    expect(result.steps.map(step => step.react)).toEqual([
      {
        thought: 'I need the sum.',
        action: { tool: 'add', input: { a: 2, b: 3 } },
        observation: 'Observation: 5',
      },
      { thought: 'I know it now.', finalAnswer: '2 + 3 = 5' },
    ]);
    expect(result.toolCalls).toMatchObject([{ toolName: 'add', result: 5, callId: 'react_1' }]);
    expect(sink.events.find(event => event.event === 'tool_start')).toMatchObject({
      tool: 'add',
      call_id: 'react_1',
      args: { a: 2, b: 3 },
      thought: 'I need the sum.',
    });
    expect(sink.events.find(event => event.event === 'agent_start')).toMatchObject({
      tool_calling: 'react',
    });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('tells a malformed answer back with what was wrong, counts it, and goes on when corrected', async () => {
    const model = fakeLLM([
      { text: 'I think I should add.' },
      { text: action('Now properly.', 'add', '{"a": 1, "b": 1}') },
      { text: 'Final Answer: 2' },
    ]);
    const sink = memorySink();
    const result = await run(
      agent({ name: 'calc', model, tools: [add], toolCalling: 'react' }),
      'add 1 and 1',
      { trace: sink, ...deterministic() },
    );

    expect(result.stopReason).toBe('completed');
    expect(result.output).toBe('2');
    const told = model.calls[1]?.messages.at(-1);
    expect(told).toEqual({
      role: 'user',
      content: expect.stringMatching(
        /^Observation: Your answer has neither an Action nor a Final Answer\. Answer in this format/,
      ) as string,
    });
    expect(sink.events.filter(event => event.event === 'malformed_answer')).toMatchObject([
      { problem: 'no_action', count: 1, step: 1, agent: 'calc' },
    ]);
    expect(result.steps[0]?.react).toMatchObject({
      thought: 'I think I should add.',
      malformed: 'no_action',
    });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('stops with malformed_answer_limit one malformed answer past the limit, trace sealed', async () => {
    const model = fakeLLM([
      { text: 'Action: multiply\nAction Input: {}' },
      { text: 'Action: add\nAction Input: {a: 1}' },
      { text: 'Final Answer: 2\nAction: add' },
    ]);
    const sink = memorySink();
    const result = await run(
      agent({
        name: 'calc',
        model,
        tools: [add],
        toolCalling: 'react',
        limits: { maxMalformedAnswers: 2 },
      }),
      'go',
      { trace: sink, ...deterministic() },
    );

    expect(result.stopReason).toBe('malformed_answer_limit');
    expect(result.limit).toEqual({ name: 'maxMalformedAnswers', value: 2 });
    expect(
      sink.events.flatMap(event => (event.event === 'malformed_answer' ? [event.problem] : [])),
    ).toEqual(['unknown_tool', 'invalid_json', 'action_and_final_answer']);
    expect(result.toolCalls).toEqual([]);
    const end = sink.events.at(-1);
    expect(end).toMatchObject({ event: 'run_end', stop_reason: 'malformed_answer_limit' });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('runs an action through the schema check: an input that fails it is a tool error observation', async () => {
    const model = fakeLLM([
      { text: action('Sum.', 'add', '{"a": "two", "b": 3}') },
      { text: action('Numbers, then.', 'add', '{"a": 2, "b": 3}') },
      { text: 'Final Answer: 5' },
    ]);
    const result = await run(
      agent({ name: 'calc', model, tools: [add], toolCalling: 'react' }),
      'go',
      deterministic(),
    );

    expect(result.output).toBe('5');
    expect(model.calls[1]?.messages.at(-1)).toEqual({
      role: 'user',
      content:
        "Observation: Invalid arguments for tool 'add': a: Invalid input: expected number, received string. Call 'add' again with arguments that match its schema.",
    });
    expect(result.toolCalls.map(call => call.error === undefined)).toEqual([false, true]);
  });

  it('streams only the Final Answer as delta chunks; thoughts and actions come as react chunks', async () => {
    const model = fakeLLM([
      { text: action('I need the sum.', 'add', '{"a": 2, "b": 3}'), deltas: 3 },
      { text: 'Thought: Done.\nFinal Answer: It is 5.', deltas: 2 },
    ]);
    const chunks: Chunk[] = [];
    const handle = stream(
      agent({ name: 'calc', model, tools: [add], toolCalling: 'react' }),
      'go',
      {
        ...deterministic(),
      },
    );
    for await (const chunk of handle) chunks.push(chunk);

    const text = (type: string, label?: string) =>
      chunks
        .filter(
          chunk =>
            chunk.type === type &&
            (label === undefined || (chunk.data as { label?: string }).label === label),
        )
        .map(chunk => (chunk.data as { text: string }).text)
        .join('');
    expect(text('delta')).toBe('It is 5.');
    expect(text('react', 'thought')).toBe('I need the sum.\nDone.\n');
    expect(text('react', 'action')).toBe('add\n');
    expect(text('react', 'action_input')).toBe('{"a": 2, "b": 3}');
    expect(chunks.filter(chunk => chunk.type === 'tool_call')).toMatchObject([
      { data: { toolName: 'add', args: { a: 2, b: 3 } } },
    ]);
  });

  it('gives a degraded answer when a tool keeps failing, as a native agent does', async () => {
    let calls = 0;
    const flaky = tool({
      name: 'lookup',
      description: 'Look a word up',
      input: z.object({ word: z.string() }),
      execute: () => {
        calls++;
        throw new Error('the dictionary is down');
      },
    });
    const model = fakeLLM([
      { text: action('Look it up.', 'lookup', '{"word": "agent"}') },
      { text: 'Thought: The tool is down.\nFinal Answer: An agent acts for someone.' },
    ]);
    const sink = memorySink();
    const result = await run(
      agent({
        name: 'dictionary',
        model,
        tools: [flaky],
        toolCalling: 'react',
        retry: { toolRetries: 2 },
      }),
      'define agent',
      { trace: sink, ...deterministic() },
    );

    expect(calls).toBe(3);
    expect(result.stopReason).toBe('tool_failure_degraded');
    expect(result.output).toBe('An agent acts for someone.');
    expect(result.degradedTools).toEqual(['lookup']);
    const observation = model.calls[1]?.messages.at(-1);
    expect(observation).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^Observation: Tool 'lookup' is unavailable/) as string,
    });
    // The unavailable tool is no longer described to the model.
    expect(model.calls[1]?.instructions).not.toContain('- lookup:');
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('hands off through a transfer action, and the target reads the conversation as text', async () => {
    const billing = agent({
      name: 'billing',
      model: fakeLLM([{ text: 'Refunds take 5 days.' }]),
    });
    const triageModel = fakeLLM([
      { text: action('This is billing.', 'transfer_to_billing', '{}') },
    ]);
    const result = await run(
      agent({ name: 'triage', model: triageModel, handoffs: [billing], toolCalling: 'react' }),
      'Where is my refund?',
      deterministic(),
    );

    expect(result.stopReason).toBe('completed');
    expect(result.output).toBe('Refunds take 5 days.');
    expect(triageModel.calls[0]?.instructions).toContain('- transfer_to_billing:');
    expect(result.handoffs).toMatchObject([{ from: 'triage', to: 'billing', accepted: true }]);
  });

  it('shows native tool calls carried in from history as Action and Observation text', async () => {
    const model = fakeLLM([{ text: 'Final Answer: 5, as before.' }]);
    await run(agent({ name: 'calc', model, tools: [add], toolCalling: 'react' }), 'again?', {
      history: [
        { role: 'user', content: '2 + 3?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ callId: 'c1', toolName: 'add', argumentsText: '{"a":2,"b":3}' }],
        },
        { role: 'tool', callId: 'c1', toolName: 'add', content: '5', isError: false },
        { role: 'assistant', content: '5', toolCalls: [] },
      ],
      ...deterministic(),
    });

    expect(model.calls[0]?.messages).toEqual([
      { role: 'user', content: '2 + 3?' },
      {
        role: 'assistant',
        content: 'Action: add\nAction Input: {"a":2,"b":3}',
        toolCalls: [],
      },
      { role: 'user', content: 'Observation: 5' },
      { role: 'assistant', content: '5', toolCalls: [] },
      { role: 'user', content: 'again?' },
    ]);
  });

  it('with an output schema, asks for the structured answer after the Final Answer, as a native agent does', async () => {
    const model = fakeLLM([
      { text: action('Sum first.', 'add', '{"a": 2, "b": 3}') },
      { text: 'Final Answer: the sum is 5' },
      { text: '{"sum": 5}' },
    ]);
    const running = stream(
      agent({
        name: 'calc',
        model,
        tools: [add],
        toolCalling: 'react',
        output: z.object({ sum: z.number() }),
      }),
      'add 2 and 3',
      deterministic(),
    );
    const deltas: string[] = [];
    for await (const chunk of running) if (chunk.type === 'delta') deltas.push(chunk.data.text);
    const result = await running.result;
    // The Final Answer, then the structured answer: the JSON is not read as a ReAct step.
    expect(deltas.join('')).toBe('the sum is 5{"sum": 5}');
    expect(result.stopReason).toBe('completed');
    expect(result.output).toEqual({ sum: 5 });
    expect(model.calls[2]?.responseFormat?.name).toBe('calc_output');
    expect(model.calls[2]?.toolNames).toEqual([]);
  });

  it('delegates to an agent used as a tool, and reads its answer as the observation', async () => {
    const expert = agent({ name: 'expert', model: fakeLLM([{ text: 'Use a trie.' }]) });
    const model = fakeLLM([
      { text: action('Ask the expert.', 'ask_expert', '{"input": "fast prefix search?"}') },
      { text: 'Final Answer: Use a trie.' },
    ]);
    const sink = memorySink();
    const result = await run(
      agent({
        name: 'lead',
        model,
        tools: [expert.asTool({ name: 'ask_expert', description: 'Ask the expert' })],
        toolCalling: 'react',
      }),
      'How do I search prefixes fast?',
      { trace: sink, ...deterministic() },
    );
    expect(result.output).toBe('Use a trie.');
    expect(model.calls[1]?.messages.at(-1)).toEqual({
      role: 'user',
      content: 'Observation: Use a trie.',
    });
    expect(sink.events.filter(event => event.event === 'handoff_start')).toMatchObject([
      { from: 'lead', to: 'expert', mode: 'return_to_caller' },
    ]);
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('refuses an unknown toolCalling with advice', () => {
    expect(() =>
      agent({
        name: 'x',
        model: fakeLLM([]),
        toolCalling: 'text' as 'react',
      }),
    ).toThrow(/Invalid toolCalling for agent 'x': expected 'native' or 'react' \(actual: "text"\)/);
  });
});
