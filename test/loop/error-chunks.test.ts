import { agent, stream, tool, type AnyAgent, type Chunk } from '@agent-trace/core';
import { blockedPatternsGuardrail } from '@agent-trace/core/guardrail';
import { fakeLLM } from '@agent-trace/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const lookup = tool({
  name: 'lookup',
  description: 'Look up',
  input: z.object({ id: z.number() }),
  execute: ({ id }) => `item ${id}`,
});
const broken = tool({
  name: 'inventory',
  description: 'Stock',
  input: z.object({}),
  execute: () => {
    throw new Error('warehouse API down');
  },
});

async function chunksOf(entry: AnyAgent, input = 'go') {
  const running = stream(entry, input);
  const chunks: Chunk[] = [];
  for await (const chunk of running) chunks.push(chunk);
  return { chunks, result: await running.result };
}

/** A → B → C → D: C's handoff would be the third in a row; C allows two. */
function handoffChain(): AnyAgent {
  const d = agent({ name: 'd', model: fakeLLM([{ text: 'never' }], { allowUnusedSteps: true }) });
  const c = agent({
    name: 'c',
    model: fakeLLM([{ toolCalls: [{ name: 'transfer_to_d' }] }]),
    handoffs: [d],
    limits: { maxHandoffDepth: 2 },
  });
  const b = agent({
    name: 'b',
    model: fakeLLM([{ toolCalls: [{ name: 'transfer_to_c' }] }]),
    handoffs: [c],
  });
  return agent({
    name: 'a',
    model: fakeLLM([{ toolCalls: [{ name: 'transfer_to_b' }] }]),
    handoffs: [b],
  });
}

describe('a stream ends with an error chunk when its run stops without completing', () => {
  const cases: [string, () => AnyAgent, string, RegExp][] = [
    [
      'an input guardrail blocks',
      () =>
        agent({
          name: 'desk',
          model: fakeLLM([], { allowUnusedSteps: true }),
          guardrails: { input: [blockedPatternsGuardrail([/password/])] },
        }),
      'guardrail_blocked',
      /input guardrail 'blocked_patterns'/,
    ],
    [
      'the handoff depth limit',
      handoffChain,
      'handoff_depth_exceeded',
      /handing off from 'c' to 'd'/,
    ],
    [
      "a tool's bad arguments, repeated until the duplicate-call limit",
      () =>
        agent({
          name: 'desk',
          model: fakeLLM(
            Array.from({ length: 3 }, () => ({
              toolCalls: [{ name: 'lookup', args: { id: 'seven' } }],
            })),
          ),
          tools: [lookup],
        }),
      'duplicate_tool_call',
      /lookup/,
    ],
    [
      'a tool that kept failing, answered without',
      () =>
        agent({
          name: 'desk',
          model: fakeLLM([{ toolCalls: [{ name: 'inventory' }] }, { text: 'Unknown.' }]),
          tools: [broken],
          circuitBreaker: false,
        }),
      'tool_failure_degraded',
      /answered without 'inventory'/,
    ],
    [
      'max steps',
      () =>
        agent({
          name: 'desk',
          model: fakeLLM([{ toolCalls: [{ name: 'lookup', args: { id: 1 } }] }]),
          tools: [lookup],
          limits: { maxSteps: 1 },
        }),
      'max_steps',
      /./,
    ],
  ];

  for (const [name, build, stopReason, message] of cases) {
    it(`when ${name}`, async () => {
      const { chunks, result } = await chunksOf(build(), 'my password is hunter2');
      expect(result.stopReason).toBe(stopReason);
      const last = chunks.at(-1);
      expect(last).toMatchObject({ type: 'error', data: { kind: stopReason } });
      expect((last?.data as { message: string }).message).toMatch(message);
      expect(chunks.filter(chunk => chunk.type === 'error')).toHaveLength(1);
    });
  }

  it('not when the run completes', async () => {
    const { chunks } = await chunksOf(agent({ name: 'a', model: fakeLLM([{ text: 'hi' }]) }));
    expect(chunks.some(chunk => chunk.type === 'error')).toBe(false);
  });
});
