import { agent, run, tool, type TraceEvent } from '@agent-trace/core';
import {
  blockedPatternsGuardrail,
  maxLengthGuardrail,
  schemaGuardrail,
  tokenGuard,
  type Guardrail,
} from '@agent-trace/core/guardrail';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const guardrailEvents = (events: readonly TraceEvent[]) =>
  events.filter(
    (event): event is Extract<TraceEvent, { event: 'guardrail' }> => event.event === 'guardrail',
  );

describe('guardrails', () => {
  it('blocks input before the model is called, with guardrail_blocked', async () => {
    const model = fakeLLM([]);
    const sink = memorySink();
    const result = await run(
      agent({
        name: 'a',
        model,
        guardrails: { input: [blockedPatternsGuardrail([/sk-[a-z0-9]{8,}/])] },
      }),
      'my key is sk-abcdef123456',
      { trace: sink },
    );
    expect(result.stopReason).toBe('guardrail_blocked');
    expect(result.detail).toBe(
      "input guardrail 'blocked_patterns' blocked the run: the input matches the blocked pattern /sk-[a-z0-9]{8,}/",
    );
    expect(model.calls).toHaveLength(0);
    expect(guardrailEvents(sink.events)).toMatchObject([
      {
        guardrail: 'blocked_patterns',
        stage: 'input',
        verdict: 'block',
        details: { pattern: '/sk-[a-z0-9]{8,}/' },
      },
    ]);
    expect(sink.events.at(-1)).toMatchObject({ stop_reason: 'guardrail_blocked' });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('records a warning and goes on', async () => {
    const model = fakeLLM([{ text: 'fine' }]);
    const sink = memorySink();
    const result = await run(
      agent({
        name: 'a',
        model,
        guardrails: { input: [maxLengthGuardrail({ maxTokens: 2, action: 'warn' })] },
      }),
      'a rather long question',
      { trace: sink },
    );
    expect(result).toMatchObject({ stopReason: 'completed', output: 'fine' });
    expect(result.guardrails).toEqual([
      {
        guardrail: 'max_length',
        stage: 'input',
        verdict: 'warn',
        reason: 'the input is about 6 tokens long; the limit is 2',
        details: { tokens: 6, maxTokens: 2 },
      },
    ]);
    expect(guardrailEvents(sink.events)).toHaveLength(1);
  });

  it('withholds an output that a guardrail blocks', async () => {
    const model = fakeLLM([{ text: 'not json at all' }]);
    const result = await run(
      agent({
        name: 'a',
        model,
        guardrails: { output: [schemaGuardrail(z.object({ answer: z.string() }))] },
      }),
      'go',
    );
    expect(result).toMatchObject({
      stopReason: 'guardrail_blocked',
      output: '',
      detail: "output guardrail 'schema' withheld the answer: the output is not JSON",
    });
  });

  it('refuses a blocked tool call without running it, tells the LLM, and goes on', async () => {
    let moved = 0;
    const counted = tool({
      name: 'transfer',
      description: 'Move money',
      input: z.object({ amount: z.number() }),
      execute: ({ amount }) => (moved += amount),
    });
    const limit: Guardrail = {
      name: 'transfer_limit',
      check: ({ toolName, args }) =>
        toolName === 'transfer' && (args as { amount: number }).amount > 100
          ? { verdict: 'block', reason: 'transfers above 100 need a human' }
          : { verdict: 'allow' },
    };
    const model = fakeLLM([
      {
        toolCalls: [
          { name: 'transfer', args: { amount: 500 } },
          { name: 'transfer', args: { amount: 50 } },
        ],
      },
      { text: 'Moved 50; 500 needs approval.' },
    ]);
    const sink = memorySink();
    const result = await run(
      agent({ name: 'a', model, tools: [counted], guardrails: { tool: [limit] } }),
      'go',
      {
        trace: sink,
      },
    );
    expect(moved).toBe(50);
    expect(result.stopReason).toBe('completed');
    expect(result.toolCalls.map(call => call.error ?? call.result)).toEqual([
      "Tool call to 'transfer' was blocked by guardrail 'transfer_limit': transfers above 100 need a human. Do not repeat it.",
      50,
    ]);
    const [event] = guardrailEvents(sink.events);
    const toolStart = sink.events.find(candidate => candidate.event === 'tool_start');
    expect(event).toMatchObject({
      stage: 'tool',
      verdict: 'block',
      parent_span_id: toolStart?.span_id,
    });
    expect(sink.events.find(candidate => candidate.event === 'tool_end')).toMatchObject({
      error: { type: 'guardrail_blocked' },
    });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('blocks when a guardrail throws (fails closed)', async () => {
    const broken: Guardrail = {
      name: 'broken',
      check: () => {
        throw new Error('classifier offline');
      },
    };
    const result = await run(
      agent({ name: 'a', model: fakeLLM([]), guardrails: { input: [broken] } }),
      'go',
    );
    expect(result.detail).toBe(
      "input guardrail 'broken' blocked the run: the guardrail threw: classifier offline",
    );
  });

  it('TokenGuard keeps a budget per session across runs: warns, then blocks', async () => {
    const guard = tokenGuard({ budget: 100, warnAt: 0.5 });
    const chatty = () =>
      agent({
        name: 'a',
        model: fakeLLM([{ text: 'ok', usage: { promptTokens: 40, completionTokens: 20 } }], {
          allowUnusedSteps: true, // the third run is blocked before the model is called
        }),
        guardrails: { input: [guard] },
      });
    const first = await run(chatty(), 'hi', { session: 's1' });
    expect(first.stopReason).toBe('completed');
    expect(guard.used('s1')).toBe(60);
    const second = await run(chatty(), 'hi', { session: 's1' });
    expect(second.guardrails[0]).toMatchObject({
      verdict: 'warn',
      reason: "session 's1' has used 60 of its 100 tokens (50% warning threshold)",
    });
    const third = await run(chatty(), 'hi', { session: 's1' });
    expect(third.stopReason).toBe('guardrail_blocked');
    expect(third.detail).toBe(
      "input guardrail 'token_guard' blocked the run: session 's1' has used 120 of its 100 tokens; this input needs about 1 more",
    );
    const other = await run(chatty(), 'hi', { session: 's2' });
    expect(other.stopReason).toBe('completed');
  });

  it('refuses a guardrail without a check function at agent() time', () => {
    expect(() =>
      agent({ name: 'a', model: fakeLLM([]), guardrails: { input: [{ name: 'x' } as never] } }),
    ).toThrow(
      "Invalid guardrail in guardrails.input of agent 'a': expected { name, check(input) }, such as maxLengthGuardrail({ maxTokens: 4096 }).",
    );
  });
});
