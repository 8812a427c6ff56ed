/**
 * The canonical scenarios, each compared with its normalised golden trace in golden/ on every run.
 * After an intended change: UPDATE_GOLDEN=1 pnpm test:unit test/scenarios/golden.test.ts, check the
 * diff of golden/, commit it.
 */
import { fileURLToPath } from 'node:url';
import {
  agent,
  run,
  sequentialIds,
  steppingClock,
  tool,
  type AnyAgent,
  type RunOptions,
} from '@agent-trace/core';
import { blockedPatternsGuardrail } from '@agent-trace/core/guardrail';
import { rateLimits } from '@agent-trace/core/rate-limit';
import {
  approveAll,
  compareGoldenTrace,
  decideBy,
  fakeLLM,
  rejectTool,
  runWithApprover,
  type Approver,
} from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const directory = fileURLToPath(new URL('../../golden', import.meta.url));
const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const lookup = tool({
  name: 'lookup',
  description: 'Look a topic up',
  input: z.object({ topic: z.string() }),
  execute: ({ topic }) => `notes on ${topic}`,
});
const transfer = (to: string) => ({ toolCalls: [{ name: `transfer_to_${to}` }] });

async function golden(
  name: string,
  entry: AnyAgent,
  input: string,
  extra: Partial<RunOptions> = {},
) {
  const sink = memorySink();
  const result = await run(entry, input, {
    trace: sink,
    clock: steppingClock(),
    ids: sequentialIds(),
    random: () => 0.5,
    session: name,
    ...extra,
  });
  expect(validateTrace(sink.events).problems).toEqual([]);
  expect(['matched', 'written']).toContain(compareGoldenTrace(name, sink.events, { directory }));
  return result;
}

describe('golden scenarios', () => {
  it('single agent with tools', async () => {
    const model = fakeLLM([
      { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
      { text: 'The sum is 5.' },
    ]);
    const result = await golden(
      'single-agent-tools',
      agent({ name: 'calculator', model, tools: [add] }),
      'What is 2 + 3?',
    );
    expect(result.stopReason).toBe('completed');
  });

  it('parallel tools', async () => {
    const model = fakeLLM([
      {
        toolCalls: [
          { name: 'add', args: { a: 1, b: 2 } },
          { name: 'lookup', args: { topic: 'otel' } },
          { name: 'add', args: { a: 3, b: 4 } },
        ],
      },
      { text: '3, 7 and notes on otel.' },
    ]);
    await golden('parallel-tools', agent({ name: 'worker', model, tools: [add, lookup] }), 'go');
  });

  it('handoff chain', async () => {
    const refunds = agent({ name: 'refunds', model: fakeLLM([{ text: 'Refund issued.' }]) });
    const billing = agent({
      name: 'billing',
      model: fakeLLM([transfer('refunds')]),
      handoffs: [refunds],
    });
    const triage = agent({
      name: 'triage',
      model: fakeLLM([transfer('billing')]),
      handoffs: [billing],
    });
    const result = await golden('handoff-chain', triage, 'I was charged twice');
    expect(result.agent).toBe('refunds');
  });

  it('agent as tool', async () => {
    const researcher = agent({
      name: 'researcher',
      model: fakeLLM([
        { toolCalls: [{ name: 'lookup', args: { topic: 'tracing' } }] },
        { text: 'W3C Trace Context.' },
      ]),
      tools: [lookup],
    });
    const writer = agent({
      name: 'writer',
      model: fakeLLM([
        { toolCalls: [{ name: 'ask_researcher', args: { input: 'Which spec?' } }] },
        { text: 'Cite the W3C Trace Context.' },
      ]),
      tools: [researcher.asTool()],
    });
    await golden('agent-as-tool', writer, 'Write a citation');
  });

  it('handoff depth exceeded', async () => {
    let next: AnyAgent = agent({ name: 'e', model: fakeLLM([]) });
    for (const name of ['d', 'c', 'b', 'a'])
      next = agent({ name, model: fakeLLM([transfer(next.name)]), handoffs: [next] });
    expect((await golden('handoff-depth-exceeded', next, 'go')).stopReason).toBe(
      'handoff_depth_exceeded',
    );
  });

  it('handoff cycle', async () => {
    const b: AnyAgent = agent({ name: 'b', model: fakeLLM([transfer('a')]), handoffs: [() => a] });
    const a: AnyAgent = agent({ name: 'a', model: fakeLLM([transfer('b')]), handoffs: [b] });
    expect((await golden('handoff-cycle', a, 'ping')).stopReason).toBe('handoff_cycle');
  });

  it('max steps', async () => {
    const model = fakeLLM(
      [1, 2, 3].map(a => ({ toolCalls: [{ name: 'add', args: { a, b: 1 } }] })),
    );
    expect(
      (
        await golden(
          'max-steps',
          agent({ name: 'looper', model, tools: [add], limits: { maxSteps: 3 } }),
          'go',
        )
      ).stopReason,
    ).toBe('max_steps');
  });

  it('duplicate call', async () => {
    const call = { toolCalls: [{ name: 'lookup', args: { topic: 'otel' } }] };
    expect(
      (
        await golden(
          'duplicate-call',
          agent({ name: 'repeater', model: fakeLLM([call, call, call]), tools: [lookup] }),
          'go',
        )
      ).stopReason,
    ).toBe('duplicate_tool_call');
  });

  it('guardrail block', async () => {
    const guarded = agent({
      name: 'guarded',
      model: fakeLLM([]),
      guardrails: { input: [blockedPatternsGuardrail([/password/i])] },
    });
    expect((await golden('guardrail-block', guarded, 'my password is hunter2')).stopReason).toBe(
      'guardrail_blocked',
    );
  });

  it('structured output retry', async () => {
    const model = fakeLLM([
      { toolCalls: [{ name: 'lookup', args: { topic: 'refunds' } }] },
      { text: 'Ready.' },
      { text: '{"verdict":"maybe"}' },
      { text: '{"verdict":"reject"}' },
    ]);
    const judge = agent({
      name: 'judge',
      model,
      tools: [lookup],
      output: z.object({ verdict: z.enum(['approve', 'reject']) }),
    });
    expect((await golden('structured-output-retry', judge, 'Refund order 42?')).output).toEqual({
      verdict: 'reject',
    });
  });

  it('tool failure degraded', async () => {
    const broken = tool({
      name: 'inventory',
      description: 'Stock levels',
      input: z.object({}),
      execute: () => {
        throw new Error('warehouse API down');
      },
    });
    const model = fakeLLM([
      { toolCalls: [{ name: 'inventory' }] },
      { text: 'Stock levels are unavailable right now.' },
    ]);
    const result = await golden(
      'tool-failure-degraded',
      agent({ name: 'clerk', model, tools: [broken], circuitBreaker: false }),
      'In stock?',
    );
    expect(result.degradedTools).toEqual(['inventory']);
    expect(result).toMatchObject({
      stopReason: 'tool_failure_degraded',
      output: 'Stock levels are unavailable right now.',
    });
  });

  it('rate limit wait', async () => {
    const model = fakeLLM([{ toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] }, { text: '3' }]);
    const result = await golden(
      'rate-limit-wait',
      agent({ name: 'calculator', model, tools: [add] }),
      'What is 1 + 2?',
      { rateLimits: rateLimits({ fake: { requestsPerMinute: 1 } }) },
    );
    expect(result.stopReason).toBe('completed');
  });

  it('abort', async () => {
    const controller = new AbortController();
    const stop = tool({
      name: 'stop',
      description: 'Presses stop',
      input: z.object({}),
      execute: () => {
        controller.abort('the user pressed stop');
        return new Promise(() => undefined);
      },
    });
    const model = fakeLLM([{ toolCalls: [{ name: 'stop' }] }]);
    expect(
      (
        await golden('abort', agent({ name: 'worker', model, tools: [stop] }), 'go', {
          signal: controller.signal,
        })
      ).stopReason,
    ).toBe('aborted');
  });
});

describe('golden ReAct scenarios', () => {
  const react = (text: string) => ({ text });
  const act = (thought: string, name: string, input: unknown) =>
    react(`Thought: ${thought}\nAction: ${name}\nAction Input: ${JSON.stringify(input)}`);
  const calculator = (script: Parameters<typeof fakeLLM>[0], limits = {}) =>
    agent({
      name: 'calculator',
      model: fakeLLM(script),
      tools: [add, lookup],
      toolCalling: 'react',
      limits,
    });

  it('happy path', async () => {
    const result = await golden(
      'react-happy',
      calculator([
        act('I need the sum.', 'add', { a: 2, b: 3 }),
        react('Thought: I know it.\nFinal Answer: The sum is 5.'),
      ]),
      'What is 2 + 3?',
    );
    expect(result).toMatchObject({ stopReason: 'completed', output: 'The sum is 5.' });
  });

  it('a malformed answer, then corrected', async () => {
    const result = await golden(
      'react-malformed-corrected',
      calculator([
        react('Thought: I need the sum.\nAction: add\nAction Input: {a: 2, b: 3}'),
        act('The input must be JSON.', 'add', { a: 2, b: 3 }),
        react('Final Answer: 5'),
      ]),
      'What is 2 + 3?',
    );
    expect(result).toMatchObject({ stopReason: 'completed', output: '5' });
  });

  it('an unknown tool', async () => {
    const result = await golden(
      'react-unknown-tool',
      calculator([
        act('Multiply them.', 'multiply', { a: 2, b: 3 }),
        act('There is no multiply; add three times.', 'add', { a: 2, b: 2 }),
        react('Final Answer: I can only add: 2 + 2 = 4.'),
      ]),
      'What is 2 × 2?',
    );
    expect(result).toMatchObject({ stopReason: 'completed' });
  });

  it('the malformed-answer limit', async () => {
    const result = await golden(
      'react-malformed-limit',
      calculator(
        [
          react('I think the answer is 5.'),
          react(
            'Thought: Let me check.\nAction: add\nAction Input: {"a": 2, "b": 3}\nObservation: 5',
          ),
        ],
        { maxMalformedAnswers: 1 },
      ),
      'What is 2 + 3?',
    );
    expect(result).toMatchObject({
      stopReason: 'malformed_answer_limit',
      limit: { name: 'maxMalformedAnswers', value: 1 },
    });
  });

  it('a degraded answer', async () => {
    const broken = tool({
      name: 'inventory',
      description: 'Stock levels',
      input: z.object({}),
      execute: () => {
        throw new Error('warehouse offline');
      },
    });
    const result = await golden(
      'react-degraded',
      agent({
        name: 'clerk',
        model: fakeLLM([
          act('Check the stock.', 'inventory', {}),
          react(
            'Thought: The inventory is down.\nFinal Answer: Stock levels are unavailable right now.',
          ),
        ]),
        tools: [broken],
        toolCalling: 'react',
        circuitBreaker: false,
      }),
      'In stock?',
    );
    expect(result).toMatchObject({
      stopReason: 'tool_failure_degraded',
      degradedTools: ['inventory'],
    });
  });
});

describe('golden approval scenarios', () => {
  const refund = tool({
    name: 'refund',
    description: 'Refund an order',
    input: z.object({ order: z.number(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 50,
    execute: ({ order, amount }) => `refunded ${amount} on order ${order}`,
  });
  const ask = { toolCalls: [{ name: 'refund', args: { order: 42, amount: 80 }, id: 'r1' }] };

  /** Runs to the pause and resumes with `approver`, both parts into one sink; compares the whole. */
  async function goldenApproval(name: string, entry: AnyAgent, approver: Approver) {
    const sink = memorySink();
    const { result, pauses } = await runWithApprover(entry, 'Refund order 42', approver, {
      trace: sink,
      clock: steppingClock(),
      ids: sequentialIds(),
      random: () => 0.5,
      session: name,
    });
    expect(pauses).toBe(1);
    expect(validateTrace(sink.events).problems).toEqual([]);
    expect(['matched', 'written']).toContain(compareGoldenTrace(name, sink.events, { directory }));
    return result;
  }

  it('approved', async () => {
    const result = await goldenApproval(
      'approval-approved',
      agent({ name: 'desk', model: fakeLLM([ask, { text: 'Refunded 80.' }]), tools: [refund] }),
      approveAll('ana'),
    );
    expect(result.stopReason).toBe('completed');
  });

  it('rejected, then another answer', async () => {
    const result = await goldenApproval(
      'approval-rejected',
      agent({
        name: 'desk',
        model: fakeLLM([ask, { text: 'I cannot refund 80; up to 50 is possible today.' }]),
        tools: [refund],
      }),
      rejectTool('refund', 'over the 50 limit', 'ana'),
    );
    expect(result.output).toBe('I cannot refund 80; up to 50 is possible today.');
  });

  it('inside a delegated agent', async () => {
    const billing = agent({
      name: 'billing',
      model: fakeLLM([ask, { text: 'Refunded 80.' }]),
      tools: [refund],
    });
    const result = await goldenApproval(
      'approval-in-delegate',
      agent({
        name: 'lead',
        model: fakeLLM([
          {
            toolCalls: [
              { name: 'ask_billing', args: { input: 'Refund 80 on order 42' }, id: 'b1' },
              { name: 'lookup', args: { topic: 'order 42' }, id: 'l1' },
            ],
          },
          { text: 'Billing refunded 80; notes on order 42 attached.' },
        ]),
        tools: [billing.asTool({ name: 'ask_billing' }), lookup],
      }),
      approveAll('ana'),
    );
    expect(result).toMatchObject({ stopReason: 'completed' });
  });

  it('edited arguments', async () => {
    const result = await goldenApproval(
      'approval-edited',
      agent({ name: 'desk', model: fakeLLM([ask, { text: 'Refunded 50.' }]), tools: [refund] }),
      decideBy(approval => ({
        decision: 'edit',
        args: { ...(approval.args as object), amount: 50 },
        by: 'ana',
        reason: 'capped at 50',
      })),
    );
    expect(result.toolCalls).toMatchObject([{ args: { order: 42, amount: 50 } }]);
  });
});
