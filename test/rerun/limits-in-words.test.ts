// A limit that stops a run is part of what it did: a lowered step limit shows where it first stops,
// naming the limit, and a step the rerun skipped says what the rerun did instead.
import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { formatDivergence, memorySink, rerunTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const lookup = tool({
  name: 'lookup',
  description: 'Looks an order up',
  input: z.object({ order: z.number() }),
  execute: ({ order }) => ({ order, status: 'shipped' }),
});

const desk = (maxSteps: number) =>
  agent({
    name: 'desk',
    instructions: 'Answer order questions.',
    model: fakeLLM(
      [
        { toolCalls: [{ name: 'lookup', args: { order: 7 } }] },
        { toolCalls: [{ name: 'lookup', args: { order: 8 } }] },
        { text: 'Both shipped.' },
      ],
      { allowUnusedSteps: true },
    ),
    tools: [lookup],
    limits: { maxSteps },
  });

describe('limits in the words of a rerun', () => {
  it('a lowered maxSteps diverges where it first stops, naming the limit', async () => {
    const sink = memorySink();
    await run(desk(3), 'Orders 7 and 8?', { trace: sink });
    const report = await rerunTrace(sink.events, desk(1));
    expect(report.firstDivergence).toMatchObject({
      kind: 'changed',
      expected: expect.stringMatching(/^model call 2 of 'desk'/),
      actual: "agent 'desk' stops: max_steps (maxSteps 1)",
    });
  });

  it('a skipped step says what the rerun did instead: a longer request the budget stops before it is sent', async () => {
    const prices = {
      'fake:fake-model': {
        inputPerMillion: 1_000,
        outputPerMillion: 10_000,
        source: 'this test',
        asOf: '2026-11-27',
      },
    };
    const priced = (instructions: string) =>
      agent({
        name: 'desk',
        instructions,
        model: fakeLLM(
          [
            {
              toolCalls: [{ name: 'lookup', args: { order: 7 } }],
              usage: { promptTokens: 30, completionTokens: 10 },
            },
          ],
          { allowUnusedSteps: true },
        ),
        tools: [lookup],
      });
    const sink = memorySink();
    // The answer costs $0.13, past the $0.1 limit: the run stops after it, its tool not run.
    await run(priced('Answer.'), 'Order 7?', { trace: sink, prices, maxCostUsd: 0.1 });
    const report = await rerunTrace(sink.events, priced(`Answer. ${'Be thorough. '.repeat(40)}`), {
      run: { prices, maxCostUsd: 0.1 },
    });
    expect(report.firstDivergence).toMatchObject({
      kind: 'missing',
      expected: expect.stringMatching(/^model call 1 of 'desk'/),
      instead: "agent 'desk' stops: budget_exceeded (maxCostUsd 0.1)",
    });
    expect(formatDivergence(report.firstDivergence!)).toContain(
      "instead:  agent 'desk' stops: budget_exceeded (maxCostUsd 0.1)",
    );
  });
});
