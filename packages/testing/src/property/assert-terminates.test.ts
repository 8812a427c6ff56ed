import { agent, tool, type AnyAgent } from '@agent-trace/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertTerminates, type BuildAgent } from './index.js';

const search = tool({
  name: 'search',
  description: 'Search',
  input: z.object({ q: z.string() }),
  execute: ({ q }) => `results for ${q}`,
});
const broken = tool({
  name: 'broken',
  description: 'Always fails',
  input: z.object({}),
  execute: () => {
    throw new Error('down');
  },
});

const single: BuildAgent = models =>
  agent({
    name: 'solo',
    model: models.for('solo'),
    tools: [search, broken],
    limits: { maxSteps: 6 },
    circuitBreaker: false,
  });

const desk: BuildAgent = models => {
  const helper = agent({
    name: 'helper',
    model: models.for('helper'),
    tools: [search],
    limits: { maxSteps: 4 },
    circuitBreaker: false,
  });
  const b: AnyAgent = agent({
    name: 'b',
    model: models.for('b'),
    tools: [helper.asTool()],
    handoffs: [() => a],
    limits: { maxSteps: 4 },
    circuitBreaker: false,
  });
  const a: AnyAgent = agent({
    name: 'a',
    model: models.for('a'),
    tools: [search],
    handoffs: [b],
    limits: { maxSteps: 4 },
    circuitBreaker: false,
  });
  return a;
};

describe('assertTerminates', () => {
  it('passes on the real loop for 1,000 hostile single-agent behaviours', async () => {
    const started = performance.now();
    await assertTerminates(single, {
      toolNames: ['search', 'broken'],
      limits: { maxSteps: 6 },
      numRuns: 1000,
      seed: 20261121,
    });
    expect(performance.now() - started).toBeLessThan(60_000);
  });

  it('passes on the real loop for 1,000 multi-agent behaviours with handoff ping-pong and delegation', async () => {
    await assertTerminates(desk, {
      toolNames: ['search', 'ask_helper'],
      handoffTargets: ['a', 'b'],
      limits: { maxSteps: 4 },
      numRuns: 1000,
      seed: 7,
    });
  });

  it('finds a planted bug, an agent without real limits, and prints a script to paste and the seed', async () => {
    const unbounded: BuildAgent = models =>
      agent({
        name: 'runaway',
        model: models.for('runaway'),
        tools: [search],
        limits: { maxSteps: 100_000, maxToolCallsPerTool: 100_000, maxDuplicateToolCalls: 100_000 },
        circuitBreaker: false,
      });
    const failure = await assertTerminates(unbounded, {
      toolNames: ['search'],
      limits: { maxSteps: 5 },
      numRuns: 200,
      seed: 42,
    }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    const message = failure!.message;
    expect(message).toMatch(/^assertTerminates: a run broke its bounds after \d+ cases?:\n {2}/);
    expect(message).toMatch(
      /agent 'runaway' (made \d+ model calls in one turn; at most 15 allowed|ran tool 'search' \d+ times in one turn; at most 5 allowed)|the run did not terminate/,
    );
    expect(message).toMatch(/Replay it with \{ seed: 42 \}/);
    expect(message).toContain("// agent 'runaway'\nfakeLLM([");
    expect(message).toMatch(/repeat forever; written out 3 times:/);
  });
});
