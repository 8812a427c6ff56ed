import { agent, resume, run, stream, tool } from '@agent-trace/core';
import { StateAlreadyResumedError } from '@agent-trace/core/approval';
import { standardFeatures, type Feature } from '@agent-trace/core/features';
import { maxLengthGuardrail } from '@agent-trace/core/guardrail';
import { fakeLLM, fakeTool } from '@agent-trace/testing';
import { jsonlSink, memorySink, validateTraceFile } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe("a user's agent", () => {
  it('runs on a FakeLLM, and the matchers check the trace and the result', async () => {
    const trace = memorySink();
    const file = jsonlSink('traces/user.jsonl');
    const calculator = agent({
      name: 'calculator',
      model: fakeLLM([
        { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
        { text: 'The sum is 5.' },
      ]),
      tools: [add],
    });
    const result = await run(calculator, 'What is 2 + 3?', { trace: [trace, file] });
    await file.close();
    expect(result).toHaveStopReason('completed');
    expect(result.output).toBe('The sum is 5.');
    expect(trace).toHaveCalledTool('add', { a: 2, b: 3 });
    expect(trace).toHaveToolSequence(['add']);
    expect(trace).toHaveNoErrors();
    expect(trace).toBeWellFormedTrace();
    expect(trace).toStayWithinTokens(10_000);
  });

  it('checks a FakeTool', async () => {
    const search = fakeTool('search', { steps: [{ result: ['doc-1'] }] });
    await run(
      agent({
        name: 'researcher',
        model: fakeLLM([
          { toolCalls: [{ name: 'search', args: { q: 'otel' } }] },
          { text: 'doc-1' },
        ]),
        tools: [search],
      }),
      'find',
    );
    expect(search).toHaveCalledTool('search');
  });

  it('streams, pauses for approval, resumes once into a JSONL trace', async () => {
    const refund = tool({
      name: 'refund',
      description: 'Refunds an order',
      input: z.object({ order: z.number() }),
      needsApproval: true,
      execute: ({ order }) => `refunded ${order}`,
    });
    const desk = agent({
      name: 'desk',
      model: fakeLLM([{ toolCalls: [{ name: 'refund', args: { order: 7 } }] }, { text: 'Done.' }]),
      tools: [refund],
    });
    const file = jsonlSink('traces/user-resume.jsonl');
    const paused = stream(desk, 'Refund order 7', { trace: file });
    for await (const chunk of paused) expect(chunk.seq).toBeGreaterThanOrEqual(0);
    const { state, interruptions } = await paused.result;
    const decisions = [{ callId: interruptions[0]!.callId, decision: 'approve' as const }];
    const done = await resume(desk, state!, { decisions, trace: file });
    expect(done).toHaveStopReason('completed');
    await expect(resume(desk, state!, { decisions, trace: file })).rejects.toThrow(
      StateAlreadyResumedError,
    );
    await file.close();
    expect((await validateTraceFile('traces/user-resume.jsonl')).problems).toEqual([]);
  });

  it("takes the standard features' per-agent options, and a feature of the user's own", async () => {
    const seen: string[] = [];
    const watcher: Feature = {
      name: 'watcher',
      version: 2,
      forRun: () => ({ afterModelCall: at => void seen.push(`${at.agent.name}@${at.step}`) }),
    };
    const guarded = agent({
      name: 'guarded',
      model: fakeLLM([{ text: 'ok' }], { allowUnusedSteps: true }),
      guardrails: { input: [maxLengthGuardrail({ maxTokens: 2, action: 'block' })] },
      circuitBreaker: { failureThreshold: 2, scope: 'run' },
    });
    const result = await run(guarded, 'a long input over two tokens', {
      features: [...standardFeatures, watcher],
    });
    expect(result.stopReason).toBe('guardrail_blocked');
    expect(seen).toEqual([]);
    const open = agent({ name: 'open', model: fakeLLM([{ text: 'ok' }]), circuitBreaker: false });
    await run(open, 'hi', { features: [...standardFeatures, watcher] });
    expect(seen).toEqual(['open@1']);
  });
});
