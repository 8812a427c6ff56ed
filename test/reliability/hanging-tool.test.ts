import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A tool that never answers, like a call to a service that hangs. */
const hanging = (timeoutMs?: number) =>
  tool({
    name: 'fetch_report',
    description: 'Fetches a report',
    input: z.object({}),
    execute: () => new Promise<never>(() => undefined),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });

describe('a tool that hangs', () => {
  it('times out, is retried, is declared unavailable, and the run ends with a complete trace', async () => {
    const trace = memorySink();
    const model = fakeLLM([
      { toolCalls: [{ name: 'fetch_report' }] },
      { text: 'The report service is not answering; here is what I know without it.' },
    ]);
    const result = await run(
      agent({ name: 'analyst', model, tools: [hanging(20)], retry: { toolRetries: 1 } }),
      'Summarise the report',
      { trace },
    );
    expect(result.stopReason).toBe('tool_failure_degraded');
    expect(result.toolCalls).toMatchObject([
      {
        toolName: 'fetch_report',
        attempts: 2,
        error: expect.stringMatching(/timed out after 20 ms/),
      },
    ]);
    expect(validateTrace(trace.events).problems).toEqual([]);
    const ends = trace.events.filter(event => event.event === 'tool_end');
    expect(ends.map(event => event.error?.type)).toEqual(['timeout', 'timeout']);
  });

  it('without a tool timeout, the run timeout ends the run, and every span is closed', async () => {
    const trace = memorySink();
    const model = fakeLLM([{ toolCalls: [{ name: 'fetch_report' }] }]);
    const result = await run(
      agent({ name: 'analyst', model, tools: [hanging()] }),
      'Summarise the report',
      { trace, timeoutMs: 30 },
    );
    expect(result.stopReason).toBe('timeout');
    expect(validateTrace(trace.events).problems).toEqual([]);
    expect(trace.events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'timeout' });
    expect(trace.events.find(event => event.event === 'tool_end')).toMatchObject({
      tool: 'fetch_report',
      error: { type: 'timeout' }, // the run's timeout stopped the tool
    });
  });
});
