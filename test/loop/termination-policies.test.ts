import { agent, run, tool, type TraceEvent } from '@agent-trace/core';
import { hasToolCall } from '@agent-trace/core/termination';
import { standardPolicy, type TerminationPolicy } from '@agent-trace/core/termination';
import { fakeLLM, fakeTool } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const search = () =>
  tool({
    name: 'search',
    description: 'Search',
    input: z.object({ q: z.string(), page: z.number().optional() }),
    execute: ({ q }) => `results for ${q}`,
  });

function ends(events: readonly TraceEvent[]) {
  expect(validateTrace(events).problems).toEqual([]);
  const agentEnd = events.find(event => event.event === 'agent_end');
  const runEnd = events.at(-1);
  return { agentEnd, runEnd };
}

describe('termination policies', () => {
  it('stops with duplicate_tool_call when the same call comes a 3rd time, argument order aside', async () => {
    const model = fakeLLM([
      { toolCalls: [{ name: 'search', args: { q: 'otel', page: 1 } }] },
      { toolCalls: [{ name: 'search', argumentsText: '{"page":1,"q":"otel"}' }] },
      { toolCalls: [{ name: 'search', args: { q: 'otel', page: 1 } }] },
    ]);
    const sink = memorySink();
    const result = await run(agent({ name: 'a', model, tools: [search()] }), 'go', { trace: sink });

    expect(result.stopReason).toBe('duplicate_tool_call');
    expect(result.toolCalls).toHaveLength(2);
    expect(result.limit).toEqual({ name: 'maxDuplicateToolCalls', value: 2 });
    const detail = `the LLM asked for tool 'search' with the same arguments ({"q":"otel","page":1}) a 3rd time; 2 allowed`;
    expect(result.detail).toBe(detail);
    const { agentEnd, runEnd } = ends(sink.events);
    expect(agentEnd).toMatchObject({
      stop_reason: 'duplicate_tool_call',
      steps: 3,
      tool_calls: 2,
      detail,
    });
    expect(runEnd).toMatchObject({
      stop_reason: 'duplicate_tool_call',
      limit: { name: 'maxDuplicateToolCalls', value: 2 },
      counts: { llm_calls: 3, tool_calls: 2 },
      detail,
    });
  });

  it('counts duplicates within one response', async () => {
    const call = { name: 'search', args: { q: 'x' } };
    const model = fakeLLM([{ toolCalls: [call, call, call] }]);
    const result = await run(agent({ name: 'a', model, tools: [search()] }), 'go');
    expect(result.stopReason).toBe('duplicate_tool_call');
    expect(result.toolCalls).toHaveLength(0);
  });

  it('honours maxDuplicateToolCalls', async () => {
    const call = { name: 'search', args: { q: 'x' } };
    const model = fakeLLM([{ toolCalls: [call] }, { toolCalls: [call] }]);
    const result = await run(
      agent({ name: 'a', model, tools: [search()], limits: { maxDuplicateToolCalls: 1 } }),
      'go',
    );
    expect(result.stopReason).toBe('duplicate_tool_call');
    expect(result.toolCalls).toHaveLength(1);
  });

  it('stops with tool_call_limit when a tool is asked for a 6th time', async () => {
    const model = fakeLLM(
      Array.from({ length: 6 }, (_, page) => ({
        toolCalls: [{ name: 'search', args: { q: 'x', page } }],
      })),
    );
    const sink = memorySink();
    const result = await run(agent({ name: 'a', model, tools: [search()] }), 'go', { trace: sink });

    expect(result.stopReason).toBe('tool_call_limit');
    expect(result.toolCalls).toHaveLength(5);
    expect(result.detail).toBe("the LLM asked for tool 'search' a 6th time; 5 allowed");
    expect(ends(sink.events).runEnd).toMatchObject({
      stop_reason: 'tool_call_limit',
      limit: { name: 'maxToolCallsPerTool', value: 5 },
    });
  });

  it('stops with budget_exceeded instead of running more tools once the token budget is spent', async () => {
    const model = fakeLLM([
      {
        toolCalls: [{ name: 'search', args: { q: 'a' } }],
        usage: { promptTokens: 60, completionTokens: 10 },
      },
      {
        toolCalls: [{ name: 'search', args: { q: 'b' } }],
        usage: { promptTokens: 80, completionTokens: 10 },
      },
    ]);
    const sink = memorySink();
    const result = await run(
      agent({ name: 'a', model, tools: [search()], limits: { maxTotalTokens: 100 } }),
      'go',
      { trace: sink },
    );
    expect(result.stopReason).toBe('budget_exceeded');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.detail).toBe('the run has used 160 tokens; the budget is 100');
    expect(ends(sink.events).runEnd).toMatchObject({
      limit: { name: 'maxTotalTokens', value: 100 },
      tok_prompt: 140,
    });
  });

  it('keeps a final answer that crosses the budget', async () => {
    const model = fakeLLM([
      { text: 'Long answer.', usage: { promptTokens: 500, completionTokens: 500 } },
    ]);
    const result = await run(agent({ name: 'a', model, limits: { maxTotalTokens: 100 } }), 'go');
    expect(result).toMatchObject({ stopReason: 'completed', output: 'Long answer.' });
  });

  it('stops with timeout when the run outlives timeoutMs, its trace complete', async () => {
    const hang = fakeTool('hang', { respond: () => new Promise(() => undefined) });
    const model = fakeLLM([{ toolCalls: [{ name: 'hang' }] }]);
    const sink = memorySink();
    const result = await run(agent({ name: 'a', model, tools: [hang] }), 'go', {
      trace: sink,
      timeoutMs: 10,
    });
    expect(result.stopReason).toBe('timeout');
    expect(result.error?.message).toBe(
      "Run timed out after 10 ms (the timeoutMs run option). Raise timeoutMs, or find out which model call or tool is slow with 'agent-trace replay'.",
    );
    const { runEnd } = ends(sink.events);
    expect(runEnd).toMatchObject({ stop_reason: 'timeout', error: { type: 'timeout' } });
    expect(sink.events.find(event => event.event === 'tool_end')).toMatchObject({
      error: { type: 'timeout' },
    });
  });

  it('ends completed when a stopWhen condition holds', async () => {
    const model = fakeLLM(
      [
        { text: 'Searching.', toolCalls: [{ name: 'search', args: { q: 'a' } }] },
        { text: 'never asked' },
      ],
      { allowUnusedSteps: true },
    );
    const sink = memorySink();
    const result = await run(
      agent({ name: 'a', model, tools: [search()], stopWhen: hasToolCall('search') }),
      'go',
      { trace: sink },
    );
    expect(result).toMatchObject({
      stopReason: 'completed',
      output: 'Searching.',
      detail: 'stopWhen condition 0 returned true after step 1',
    });
    expect(model.remainingSteps).toBe(1);
    expect(ends(sink.events).runEnd).toMatchObject({
      stop_reason: 'completed',
      detail: result.detail,
    });
  });

  it('runs tool calls that come with a stop finish reason (as Gemini sends them)', async () => {
    const model = fakeLLM([
      { toolCalls: [{ name: 'search', args: { q: 'a' } }], finishReason: 'stop' },
      { text: 'cut off mid-sent', finishReason: 'length' },
    ]);
    const result = await run(agent({ name: 'a', model, tools: [search()] }), 'go');
    expect(result.toolCalls).toHaveLength(1);
    expect(result).toMatchObject({ stopReason: 'completed', output: 'cut off mid-sent' });
    expect(result.steps.map(step => step.finishReason)).toEqual(['stop', 'length']);
  });

  it('accepts a custom termination policy', async () => {
    const noTools: TerminationPolicy = {
      decide: (response, context) => {
        const decision = standardPolicy.decide(response, context);
        return decision.kind === 'run_tools'
          ? { kind: 'stop', reason: 'guardrail_blocked', detail: 'tools are off today' }
          : decision;
      },
    };
    const model = fakeLLM([{ toolCalls: [{ name: 'search', args: { q: 'a' } }] }]);
    const result = await run(
      agent({ name: 'a', model, tools: [search()], terminationPolicy: noTools }),
      'go',
    );
    expect(result).toMatchObject({
      stopReason: 'guardrail_blocked',
      detail: 'tools are off today',
    });
  });
});

describe('a policy that interrupts', () => {
  it('ends the run as interrupted, the trace sealed, the stream told why', async () => {
    const { agent, stream } = await import('@agent-trace/core');
    const { fakeLLM } = await import('@agent-trace/testing');
    const { memorySink, validateTrace } = await import('@agent-trace/trace');
    const trace = memorySink();
    const running = stream(
      agent({
        name: 'desk',
        model: fakeLLM([{ toolCalls: [{ name: 'refund', args: { order: 7 } }] }]),
        terminationPolicy: {
          decide: () => ({ kind: 'interrupt', reason: 'a person must approve the refund' }),
        },
      }),
      'Refund order 7',
      { trace },
    );
    const chunks = [];
    for await (const chunk of running) chunks.push(chunk);
    const result = await running.result;
    expect(result).toMatchObject({
      stopReason: 'interrupted',
      detail: 'the run waits: a person must approve the refund',
    });
    expect(chunks.at(-1)).toMatchObject({ type: 'error', data: { kind: 'interrupted' } });
    expect(validateTrace(trace.events).problems).toEqual([]);
    expect(trace.events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'interrupted' });
  });
});
