import { describe, expect, it } from 'vitest';
import { agent, run, steppingClock } from '@agent-trace/core';
import { memorySink } from '@agent-trace/trace';
import { z } from 'zod';
import { fakeLLM } from './fake-llm.js';
import { fakeTool } from './fake-tool.js';

const context = (callId: string) => ({
  abortSignal: new AbortController().signal,
  callId,
  agentName: 'tester',
  clock: steppingClock({ stepMs: 0 }),
});

describe('fakeTool', () => {
  it('answers from its steps in order, then from respond, recording every call', async () => {
    const search = fakeTool('search', {
      input: z.object({ q: z.string() }),
      steps: [{ result: ['doc-1'] }, { error: 'index offline' }],
      respond: ({ q }) => `live:${q}`,
    });
    expect(await search.execute({ q: 'a' }, context('c1'))).toEqual(['doc-1']);
    await expect(search.execute({ q: 'b' }, context('c2'))).rejects.toThrow('index offline');
    expect(await search.execute({ q: 'c' }, context('c3'))).toBe('live:c');
    expect(search.calls).toEqual([
      {
        index: 1,
        args: { q: 'a' },
        callId: 'c1',
        agentName: 'tester',
        result: ['doc-1'],
        error: undefined,
        startedAtMs: 1767225600000,
        endedAtMs: 1767225600000,
      },
      {
        index: 2,
        args: { q: 'b' },
        callId: 'c2',
        agentName: 'tester',
        result: undefined,
        error: 'index offline',
        startedAtMs: 1767225600000,
        endedAtMs: 1767225600000,
      },
      {
        index: 3,
        args: { q: 'c' },
        callId: 'c3',
        agentName: 'tester',
        result: 'live:c',
        error: undefined,
        startedAtMs: 1767225600000,
        endedAtMs: 1767225600000,
      },
    ]);
    expect(search.definition.inputSchema).toMatchObject({
      type: 'object',
      properties: { q: { type: 'string' } },
    });
  });

  it('fails a call beyond its script when it has no respond function', async () => {
    const tool = fakeTool('search');
    await expect(tool.execute({}, context('c1'))).rejects.toThrow(
      "FakeTool 'search' was called 1 times but has 0 scripted steps and no 'respond' function. Add a step or a respond function.",
    );
  });

  it('assertComplete reports unused steps', async () => {
    const tool = fakeTool('search', {
      steps: [{ result: 1 }, { result: 2 }],
      allowUnusedSteps: true,
    });
    await tool.execute({}, context('c1'));
    expect(() => tool.assertComplete()).toThrow(
      "FakeTool 'search' has 1 unused step; it was called 1 time.",
    );
  });

  it('takes its latency on the run’s virtual clock: instant, yet visible in the trace and its calls', async () => {
    const slow = fakeTool('slow', {
      latencyMs: 250,
      steps: [{ result: 'a' }, { result: 'b', latencyMs: 1000 }],
    });
    const model = fakeLLM([
      { toolCalls: [{ name: 'slow' }] },
      { toolCalls: [{ name: 'slow', args: { n: 2 } }] },
      { text: 'done' },
    ]);
    const sink = memorySink();
    const started = Date.now();
    await run(agent({ name: 'a', model, tools: [slow] }), 'go', {
      trace: sink,
      clock: steppingClock({ stepMs: 0 }),
    });
    expect(Date.now() - started).toBeLessThan(200);
    expect(slow.calls.map(call => call.endedAtMs - call.startedAtMs)).toEqual([250, 1000]);
    expect(
      sink.events.filter(event => event.event === 'tool_end').map(event => event.duration_ms),
    ).toEqual([250, 1000]);
  });
});
