import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, sequentialIds, steppingClock, tool, type TraceEvent } from '@agent-trace/core';
import { memorySink } from '@agent-trace/trace';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fakeLLM } from '../fake-llm.js';
import { fakeTool } from '../fake-tool.js';

const add = tool({
  name: 'add',
  description: 'Add',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

async function scenario() {
  const refund = fakeTool('refund', {
    steps: [{ error: 'card expired' }, { error: 'card expired' }, { error: 'card expired' }],
  });
  const billing = agent({
    name: 'billing',
    model: fakeLLM([
      {
        toolCalls: [{ name: 'refund', args: { order: 42 } }],
        usage: { promptTokens: 50, completionTokens: 10 },
      },
      { text: 'Sorry.', usage: { promptTokens: 70, completionTokens: 5 } },
    ]),
    tools: [refund],
  });
  const triage = agent({
    name: 'triage',
    model: fakeLLM([
      {
        toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }],
        usage: { promptTokens: 20, completionTokens: 5 },
      },
      {
        toolCalls: [{ name: 'add', args: { a: 1, b: 1 } }, { name: 'transfer_to_billing' }],
        usage: { promptTokens: 30, completionTokens: 8 },
      },
    ]),
    tools: [add],
    handoffs: [billing],
  });
  const sink = memorySink();
  const result = await run(triage, 'refund my order', {
    trace: sink,
    clock: steppingClock(),
    ids: sequentialIds(),
  });
  return { events: sink.events, sink, result, refund };
}

let trace: TraceEvent[];
let result: Awaited<ReturnType<typeof scenario>>['result'];
let refund: Awaited<ReturnType<typeof scenario>>['refund'];
beforeAll(async () => {
  ({ events: trace, result, refund } = await scenario());
});

const tree = `The trace has:
  triage
    ├─ add {"a":2,"b":3} → 5
    └─ add {"a":1,"b":1} → 2
  billing
    ├─ refund {"order":42} ✗ Tool 'refund' failed: card expired
    ├─ refund {"order":42} (attempt 2) ✗ Tool 'refund' failed: card expired
    └─ refund {"order":42} (attempt 3) ✗ Tool 'refund' failed: card expired
  handoff triage → billing (depth 1, pass_control)
  stop: tool_failure_degraded`;

describe('toHaveCalledTool', () => {
  it('passes for a trace, a result and a fake tool; with partial arguments', () => {
    expect(trace).toHaveCalledTool('add');
    expect(trace).toHaveCalledTool('add', { a: 2 });
    expect(result).toHaveCalledTool('refund', { order: 42 });
    expect(refund).toHaveCalledTool('refund');
    expect(trace).not.toHaveCalledTool('delete_account');
  });

  it('fails with the tools called, as a tree', () => {
    expect(() => expect(trace).toHaveCalledTool('delete_account')).toThrow(
      `expected the trace to have called tool 'delete_account'; tools called: add, add, refund, refund, refund\n\n${tree}`,
    );
    expect(() => expect(trace).toHaveCalledTool('add', { a: 9 })).toThrow(
      /^expected the trace to have called tool 'add' with \{"a":9\}; 'add' was called 2 times/,
    );
    expect(() => expect(trace).not.toHaveCalledTool('add')).toThrow(
      /^expected the trace not to have called tool 'add'/,
    );
  });
});

describe('toHaveCalledToolTimes', () => {
  it('counts calls', () => {
    expect(trace).toHaveCalledToolTimes('add', 2);
    expect(() => expect(trace).toHaveCalledToolTimes('add', 1)).toThrow(
      /^expected the trace to have called tool 'add' 1 time; it was called 2 times/,
    );
  });
});

describe('toHaveToolSequence', () => {
  it('compares strictly, in order, unordered or as a subset', () => {
    expect(trace).toHaveToolSequence(['add', 'add', 'refund', 'refund', 'refund']);
    expect(trace).toHaveToolSequence(['add', 'refund'], { mode: 'inOrder' });
    expect(trace).toHaveToolSequence(['refund', 'refund', 'add', 'refund', 'add'], {
      mode: 'unordered',
    });
    expect(trace).toHaveToolSequence(['refund', 'add'], { mode: 'subset' });
    expect(trace).not.toHaveToolSequence(['refund', 'add'], { mode: 'inOrder' });
  });

  it('fails showing the sequence that happened', () => {
    expect(() => expect(trace).toHaveToolSequence(['add', 'refund'])).toThrow(
      /^expected the trace to have the tool sequence \[add, refund\] \(strict\); the tools called were \[add, add, refund, refund, refund\]/,
    );
    expect(() => expect(trace).toHaveToolSequence(['search'], { mode: 'subset' })).toThrow(
      /\(subset\)/,
    );
  });
});

describe('toHaveHandedOffTo', () => {
  it('finds handoffs, optionally from a given agent', () => {
    expect(trace).toHaveHandedOffTo('billing');
    expect(result).toHaveHandedOffTo('billing', { from: 'triage' });
    expect(() => expect(trace).toHaveHandedOffTo('billing', { from: 'sales' })).toThrow(
      /^expected the trace to have handed off to 'billing' from 'sales'; handoffs: triage → billing/,
    );
    expect(() => expect(trace).toHaveHandedOffTo('tech')).toThrow(/handoffs: triage → billing/);
  });
});

describe('toHaveStopReason', () => {
  it('checks the stop reason', () => {
    expect(trace).toHaveStopReason('tool_failure_degraded');
    expect(result).toHaveStopReason('tool_failure_degraded');
    expect(() => expect(trace).toHaveStopReason('max_steps')).toThrow(
      /^expected the trace to have stopped with 'max_steps'; it stopped with 'tool_failure_degraded'/,
    );
  });
});

describe('toHaveStepCount', () => {
  it('checks bounds', () => {
    expect(trace).toHaveStepCount({ min: 4, max: 4 });
    expect(result).toHaveStepCount({ max: 10 });
    expect(() => expect(trace).toHaveStepCount({ max: 3 })).toThrow(
      /^expected the trace to have at most 3 steps; it has 4/,
    );
    expect(() => expect(trace).toHaveStepCount({ min: 5, max: 9 })).toThrow(
      /to have between 5 and 9 steps; it has 4/,
    );
  });
});

describe('toHaveNoErrors', () => {
  it('lists the errors', () => {
    expect(() => expect(trace).toHaveNoErrors()).toThrow(
      /^expected the trace to have no errors; errors:\n {4}tool refund: execution_failed: Tool 'refund' failed: card expired/,
    );
    expect(refund).not.toHaveNoErrors();
  });

  it('passes for a clean run', async () => {
    const sink = memorySink();
    await run(agent({ name: 'a', model: fakeLLM([{ text: 'fine' }]) }), 'go', { trace: sink });
    expect(sink).toHaveNoErrors();
  });
});

describe('toStayWithinTokens', () => {
  it('sums tokens, per agent when asked', () => {
    expect(trace).toStayWithinTokens(198);
    expect(result).toStayWithinTokens(135, { agent: 'billing' });
    expect(() => expect(trace).toStayWithinTokens(100)).toThrow(
      /^expected the trace to stay within 100 tokens; it used 198/,
    );
    expect(() => expect(trace).toStayWithinTokens(50, { agent: 'triage' })).toThrow(
      /for agent 'triage'; it used 63/,
    );
  });
});

describe('toBeWellFormedTrace', () => {
  it('applies the validate rules', () => {
    expect(trace).toBeWellFormedTrace();
    const broken = trace.filter(event => event.event !== 'tool_end');
    expect(() => expect(broken).toBeWellFormedTrace()).toThrow(
      /^expected the trace to be a well-formed trace; problems:\n {4}seq_gap: /,
    );
    expect(() => expect(result).toBeWellFormedTrace()).toThrow(
      'toBeWellFormedTrace() needs a trace: an array of events or a memorySink.',
    );
  });
});

describe('toMatchGoldenTrace', () => {
  const directory = mkdtempSync(join(tmpdir(), 'agent-trace-matcher-golden-'));

  it('fails when the golden file is missing (and CI never writes it)', async () => {
    await expect(expect(trace).toMatchGoldenTrace('absent', { directory })).rejects.toThrow(
      /^Golden trace 'absent' does not exist .*Run the test with UPDATE_GOLDEN=1 to write it/,
    );
  });

  it('writes with UPDATE_GOLDEN=1, then matches a new run of the same behaviour', async () => {
    const before = { update: process.env.UPDATE_GOLDEN, ci: process.env.CI };
    process.env.UPDATE_GOLDEN = '1';
    delete process.env.CI;
    try {
      await expect(trace).toMatchGoldenTrace('refund', { directory });
    } finally {
      if (before.update === undefined) delete process.env.UPDATE_GOLDEN;
      else process.env.UPDATE_GOLDEN = before.update;
      if (before.ci !== undefined) process.env.CI = before.ci;
    }
    const again = await scenario();
    await expect(again.events).toMatchGoldenTrace('refund', { directory });
    const changed = again.events.map(event =>
      event.event === 'run_start' ? { ...event, input: 'something else' } : event,
    );
    await expect(expect(changed).toMatchGoldenTrace('refund', { directory })).rejects.toThrow(
      /Trace differs from golden trace 'refund'/,
    );
  });
});

describe('subjects', () => {
  it('refuses what it cannot read', () => {
    expect(() => expect(42).toHaveCalledTool('x')).toThrow(
      'agent-trace matchers take a trace (an array of events, or a memorySink), a run result, or a fakeTool.',
    );
  });
});
