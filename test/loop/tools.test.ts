import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM, fakeTool } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deterministic } from '../support/deterministic.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe('tool calls', () => {
  it('sends a zod validation error back to the LLM as a tool error and lets it correct itself', async () => {
    const model = fakeLLM([
      { toolCalls: [{ name: 'add', args: { a: 'two', b: 3 } }] },
      { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
      { text: '5' },
    ]);
    const sink = memorySink();
    const result = await run(agent({ name: 'calc', model, tools: [add] }), 'add', {
      trace: sink,
      ...deterministic(),
    });

    expect(result.stopReason).toBe('completed');
    expect(result.output).toBe('5');
    const toolMessage = model.calls[1]!.messages.at(-1);
    expect(toolMessage).toEqual({
      role: 'tool',
      callId: 'call_1_1',
      toolName: 'add',
      isError: true,
      content:
        "Invalid arguments for tool 'add': a: Invalid input: expected number, received string. Call 'add' again with arguments that match its schema.",
    });
    const ends = sink.events.filter(event => event.event === 'tool_end');
    expect(ends[0]).toMatchObject({
      tool: 'add',
      args: { a: 'two', b: 3 },
      error: { type: 'invalid_arguments' },
    });
    expect(ends[1]).toMatchObject({ tool: 'add', result: 5 });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('reports malformed JSON arguments to the LLM without running the tool', async () => {
    const execute = fakeTool('add', { input: z.object({ a: z.number() }) });
    const model = fakeLLM([
      { toolCalls: [{ name: 'add', argumentsText: '{"a": 1' }] },
      { text: 'sorry' },
    ]);
    const result = await run(agent({ name: 'calc', model, tools: [execute] }), 'go');

    expect(execute.calls).toHaveLength(0);
    expect(result.toolCalls[0]).toMatchObject({ args: '{"a": 1', result: undefined });
    expect(result.toolCalls[0]!.error).toMatch(
      /^Invalid arguments for tool 'add': not valid JSON \(.+\)\. Call 'add' again/,
    );
  });

  it('tells the LLM which tools exist when it calls one that does not', async () => {
    const model = fakeLLM([{ toolCalls: [{ name: 'multiply', args: { a: 1 } }] }, { text: 'ok' }]);
    const sink = memorySink();
    const result = await run(
      agent({ name: 'calc', model, tools: [add, fakeTool('search')] }),
      'go',
      { trace: sink },
    );

    expect(result.toolCalls[0]!.error).toBe(
      "Tool 'multiply' does not exist. Available tools: add, search. Call one of these instead.",
    );
    expect(model.calls[1]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      isError: true,
      toolName: 'multiply',
    });
    expect(sink.events.find(event => event.event === 'tool_end')).toMatchObject({
      tool: 'multiply',
      error: { type: 'unknown_tool' },
    });
    expect(validateTrace(sink.events).valid).toBe(true);
  });

  it('retries a throwing tool, then tells the LLM it is unavailable and goes on degraded', async () => {
    let attempts = 0;
    const flaky = tool({
      name: 'lookup',
      description: 'Look up',
      input: z.object({}),
      execute: () => {
        attempts++;
        throw new Error('database offline');
      },
    });
    const model = fakeLLM([{ toolCalls: [{ name: 'lookup' }] }, { text: 'The lookup failed.' }]);
    const sink = memorySink();
    const result = await run(
      agent({ name: 'a', model, tools: [flaky], circuitBreaker: false }),
      'go',
      {
        trace: sink,
      },
    );

    expect(attempts).toBe(3);
    expect(result.stopReason).toBe('tool_failure_degraded');
    expect(result.degradedTools).toEqual(['lookup']);
    const told =
      "Tool 'lookup' is unavailable: it failed 3 times (last error: Tool 'lookup' failed: database offline). Do not call it again; answer with what you have.";
    expect(result.toolCalls[0]).toMatchObject({ error: told, attempts: 3 });
    expect(model.calls[1]!.messages.at(-1)).toMatchObject({ isError: true, content: told });
    expect(model.calls[1]!.toolNames).toEqual([]);
    const toolEnds = sink.events.filter(event => event.event === 'tool_end');
    expect(toolEnds.map(event => event.attempt)).toEqual([1, 2, 3]);
    expect(sink.events.filter(event => event.event === 'retry')).toMatchObject([
      { target: 'tool', name: 'lookup', attempt: 2, error: { type: 'execution_failed' } },
      { target: 'tool', name: 'lookup', attempt: 3 },
    ]);
    expect(sink.events.at(-1)).toMatchObject({
      event: 'run_end',
      counts: { tool_calls: 3, tool_errors: 3 },
      degraded_tools: ['lookup'],
    });
    expect(validateTrace(sink.events).valid).toBe(true);
  });

  it('fails a tool call that outlives its timeoutMs and tells the LLM', async () => {
    const slow = tool({
      name: 'slow',
      description: 'Never answers',
      input: z.object({}),
      timeoutMs: 5,
      execute: (_input, { abortSignal }) =>
        new Promise((_resolve, reject) =>
          abortSignal.addEventListener('abort', () => reject(new Error('stopped'))),
        ),
    });
    const model = fakeLLM([{ toolCalls: [{ name: 'slow' }] }, { text: 'gave up' }]);
    const result = await run(
      agent({ name: 'a', model, tools: [slow], retry: { toolRetries: 0 }, circuitBreaker: false }),
      'go',
    );

    expect(result.toolCalls[0]!.error).toBe(
      "Tool 'slow' is unavailable: it failed 1 time (last error: Tool 'slow' timed out after 5 ms. Try again with a simpler request, or answer without this tool.). Do not call it again; answer with what you have.",
    );
    expect(result.stopReason).toBe('tool_failure_degraded');
  });

  it('runs the tool calls of one turn in parallel and records results in the order asked', async () => {
    const events: string[] = [];
    let openGate!: () => void;
    const gate = new Promise<void>(resolve => (openGate = resolve));
    const first = tool({
      name: 'first',
      description: 'Waits for the second',
      input: z.object({}),
      execute: async () => {
        events.push('first started');
        await gate;
        events.push('first finished');
        return 'one';
      },
    });
    const second = tool({
      name: 'second',
      description: 'Finishes first',
      input: z.object({}),
      execute: () => {
        events.push('second started');
        openGate();
        events.push('second finished');
        return 'two';
      },
    });
    const model = fakeLLM([
      { toolCalls: [{ name: 'first' }, { name: 'second' }] },
      { text: 'done' },
    ]);
    const sink = memorySink();
    const result = await run(agent({ name: 'a', model, tools: [first, second] }), 'go', {
      trace: sink,
    });

    expect(events).toEqual([
      'first started',
      'second started',
      'second finished',
      'first finished',
    ]);
    expect(result.toolCalls.map(call => call.result)).toEqual(['one', 'two']);
    expect(
      model.calls[1]!.messages.slice(-2).map(message => message.role === 'tool' && message.content),
    ).toEqual(['one', 'two']);
    const toolEvents = sink.events
      .filter(event => event.event.startsWith('tool_'))
      .map(event => `${event.event}:${(event as { tool: string }).tool}`);
    expect(toolEvents).toEqual([
      'tool_start:first',
      'tool_start:second',
      'tool_end:first',
      'tool_end:second',
    ]);
  });
});

describe('agent and tool configuration', () => {
  it('refuses two tools with the same name when the agent is made', () => {
    expect(() => agent({ name: 'a', model: fakeLLM([]), tools: [add, add] })).toThrow(
      "Duplicate tool name 'add' in agent 'a': the LLM could not tell the two apart. Give each tool a unique name.",
    );
  });

  it('refuses a maxSteps that is not a positive integer', () => {
    expect(() => agent({ name: 'a', model: fakeLLM([]), limits: { maxSteps: 0 } })).toThrow(
      "Invalid limits.maxSteps for agent 'a': expected an integer of at least 1 (actual: 0).",
    );
  });

  it('refuses a tool name providers would reject', () => {
    expect(() =>
      tool({ name: 'get weather', description: '', input: z.object({}), execute: () => 1 }),
    ).toThrow(
      /^Invalid tool name "get weather": providers accept only letters, digits, '_' and '-'/,
    );
  });

  it('refuses an agent without a model', () => {
    expect(() => agent({ name: 'a', model: {} as never })).toThrow(/Agent 'a' has no usable model/);
  });
});
