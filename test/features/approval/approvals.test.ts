import { agent, handoff, resume, run, stream, tool } from '@agent-trace/core';
import { type RunStateSnapshot } from '@agent-trace/core/approval';
import {
  approveAll,
  decideBy,
  fakeLLM,
  rejectTool,
  runWithApprover,
  type FakeLLMStep,
} from '@agent-trace/testing';
import '@agent-trace/testing/vitest';
import { startOtlpReceiver } from '@agent-trace/testing/otlp';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../../support/cli.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deterministic } from '../../support/deterministic.js';

const refunds: { order: number; amount: number }[] = [];
beforeEach(() => {
  refunds.length = 0;
});
const refund = tool({
  name: 'refund',
  description: 'Refund an order',
  input: z.object({ order: z.number(), amount: z.number() }),
  needsApproval: ({ amount }) => amount > 50,
  execute: ({ order, amount }) => {
    refunds.push({ order, amount });
    return `refunded ${amount} on order ${order}`;
  },
});
const ask = (amount: number, id = 'r1'): FakeLLMStep => ({
  toolCalls: [{ name: 'refund', args: { order: 42, amount }, id }],
});
const desk = (script: readonly FakeLLMStep[]) =>
  agent({ name: 'desk', model: fakeLLM(script), tools: [refund] });

/** Runs to the pause, then resumes in a "new process": a fresh agent graph, the state through JSON. */
async function pauseThenResume(
  first: readonly FakeLLMStep[],
  rest: readonly FakeLLMStep[],
  decision: Record<string, unknown>,
) {
  const sink = memorySink();
  const paused = await run(desk(first), 'Refund order 42', { trace: sink, ...deterministic() });
  const state = JSON.parse(JSON.stringify(paused.state)) as RunStateSnapshot;
  const model = fakeLLM(rest);
  const result = await resume(agent({ name: 'desk', model, tools: [refund] }), state, {
    decisions: [{ callId: 'r1', ...decision } as never],
    trace: sink,
    ...deterministic(),
  });
  return { paused, result, sink, model };
}

describe('a call that needs approval', () => {
  it('pauses the run before it runs: interrupted, the pending call listed, a state to resume', async () => {
    const sink = memorySink();
    const paused = await run(desk([ask(80)]), 'Refund order 42', {
      trace: sink,
      ...deterministic(),
    });
    expect(paused.stopReason).toBe('interrupted');
    expect(paused.detail).toBe("the run waits: 'refund' (r1) needs a person's approval");
    expect(paused.interruptions).toEqual([
      {
        callId: 'r1',
        toolName: 'refund',
        kind: 'tool',
        agent: 'desk',
        args: { order: 42, amount: 80 },
      },
    ]);
    expect(refunds).toEqual([]);
    expect(paused.state).toMatchObject({
      format: 'agent-trace/run-state',
      version: 2,
      run: { id: paused.runId, input: 'Refund order 42', entryAgent: 'desk' },
      turn: { agent: 'desk', path: ['desk'], steps: 1 },
      integrity: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
    });
    expect(sink).toHaveRequestedApproval('refund', { amount: 80 });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('is not asked about when the function says so', async () => {
    const result = await run(
      desk([ask(20), { text: 'Refunded 20.' }]),
      'Refund 20',
      deterministic(),
    );
    expect(result.stopReason).toBe('completed');
    expect(refunds).toEqual([{ order: 42, amount: 20 }]);
  });

  it('approved: runs, and the run goes on as one run with no seq gap', async () => {
    const { paused, result, sink } = await pauseThenResume(
      [ask(80)],
      [{ text: 'Refunded 80 on order 42.' }],
      { decision: 'approve', by: 'ana' },
    );
    expect(result).toMatchObject({ stopReason: 'completed', runId: paused.runId });
    expect(refunds).toEqual([{ order: 42, amount: 80 }]);
    const report = validateTrace(sink.events);
    expect(report.problems).toEqual([]);
    expect(report.runs).toMatchObject([{ run: paused.runId, stopReason: 'completed' }]);
    expect(sink.events.map(event => event.seq)).toEqual(sink.events.map((_, index) => index));
    expect(sink).toHaveResolvedApproval('refund', 'approved');
    expect(sink.events.find(event => event.event === 'approval_resolved')).toMatchObject({
      call_id: 'r1',
      decision: 'approved',
      by: 'ana',
    });
    expect(result.steps).toHaveLength(2);
    expect(result.toolCalls).toMatchObject([
      { toolName: 'refund', result: 'refunded 80 on order 42' },
    ]);
  });

  it('rejected: does not run; the model reads the refusal and its reason', async () => {
    const { result, sink, model } = await pauseThenResume(
      [ask(80)],
      [{ text: 'I cannot refund 80; a refund of up to 50 is possible.' }],
      { decision: 'reject', by: 'ana', reason: 'over the 50 limit' },
    );
    expect(result.stopReason).toBe('completed');
    expect(refunds).toEqual([]);
    expect(model.calls[0]?.messages.at(-1)).toEqual({
      role: 'tool',
      callId: 'r1',
      toolName: 'refund',
      isError: true,
      content:
        'The call was refused by ana: over the 50 limit. It did not run; do not ask for it again, answer without it.',
    });
    expect(sink).toHaveResolvedApproval('refund', 'rejected');
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('edited: runs with the new arguments', async () => {
    const { result, sink } = await pauseThenResume([ask(80)], [{ text: 'Refunded 50.' }], {
      decision: 'edit',
      args: { order: 42, amount: 50 },
      by: 'ana',
      reason: 'capped',
    });
    expect(result.stopReason).toBe('completed');
    expect(refunds).toEqual([{ order: 42, amount: 50 }]);
    expect(sink.events.find(event => event.event === 'tool_start')).toMatchObject({
      args: { order: 42, amount: 50 },
    });
    expect(sink.events.find(event => event.event === 'approval_resolved')).toMatchObject({
      decision: 'edited',
      args: { order: 42, amount: 50 },
    });
  });

  it('a handoff can need approval too', async () => {
    const billing = agent({ name: 'billing', model: fakeLLM([{ text: 'Billing here.' }]) });
    const front = agent({
      name: 'front',
      model: fakeLLM([{ toolCalls: [{ name: 'transfer_to_billing', id: 'h1' }] }]),
      handoffs: [handoff(billing, { needsApproval: true })],
    });
    const { result, pauses } = await runWithApprover(
      front,
      'Invoice?',
      approveAll('lead'),
      deterministic(),
    );
    expect(pauses).toBe(1);
    expect(result).toMatchObject({
      stopReason: 'completed',
      output: 'Billing here.',
      agent: 'billing',
    });
  });

  it('so can an agent used as a tool', async () => {
    const expert = agent({ name: 'expert', model: fakeLLM([{ text: 'Use a trie.' }]) });
    const lead = agent({
      name: 'lead',
      model: fakeLLM([
        { toolCalls: [{ name: 'ask_expert', args: { input: 'prefix search?' }, id: 'd1' }] },
        { text: 'Use a trie.' },
      ]),
      tools: [expert.asTool({ needsApproval: true })],
    });
    const paused = await run(lead, 'How?', deterministic());
    expect(paused.interruptions).toMatchObject([{ callId: 'd1', kind: 'delegation' }]);
    const done = await resume(lead, paused.state!, {
      decisions: [{ callId: 'd1', decision: 'approve' }],
    });
    expect(done.output).toBe('Use a trie.');
  });

  it('pauses a stream the same way', async () => {
    const running = stream(desk([ask(80)]), 'Refund', deterministic());
    for await (const _chunk of running);
    const result = await running.result;
    expect(result.stopReason).toBe('interrupted');
    expect(result.state).toBeDefined();
  });

  it('works in ReAct mode', async () => {
    const reactDesk = (script: readonly FakeLLMStep[]) =>
      agent({ name: 'desk', model: fakeLLM(script), tools: [refund], toolCalling: 'react' });
    const paused = await run(
      reactDesk([
        { text: 'Thought: refund it.\nAction: refund\nAction Input: {"order": 42, "amount": 80}' },
      ]),
      'Refund',
      deterministic(),
    );
    expect(paused.interruptions).toMatchObject([{ callId: 'react_1', toolName: 'refund' }]);
    const done = await resume(reactDesk([{ text: 'Final Answer: done' }]), paused.state!, {
      decisions: [{ callId: 'react_1', decision: 'approve' }],
    });
    expect(done).toMatchObject({ stopReason: 'completed', output: 'done' });
    expect(refunds).toEqual([{ order: 42, amount: 80 }]);
  });
});

describe('scripted approvers', () => {
  it('rejectTool refuses one tool and approves the rest; decideBy decides by a function', async () => {
    const rejected = await runWithApprover(
      desk([ask(80), { text: 'Not refunded.' }]),
      'Refund',
      rejectTool('refund', 'no'),
    );
    expect(rejected.result.output).toBe('Not refunded.');
    expect(refunds).toEqual([]);
    const edited = await runWithApprover(
      desk([ask(80), { text: 'Refunded 10.' }]),
      'Refund',
      decideBy(approval => ({
        decision: 'edit',
        args: { ...(approval.args as object), amount: 10 },
      })),
    );
    expect(edited.result.output).toBe('Refunded 10.');
    expect(refunds).toEqual([{ order: 42, amount: 10 }]);
  });

  it('stops answering after maxPauses: the result is still paused', async () => {
    const { result, pauses } = await runWithApprover(
      desk([ask(80, 'a'), ask(90, 'b'), ask(95, 'c')]),
      'Refund',
      approveAll(),
      { maxPauses: 2 },
    );
    expect(pauses).toBe(2);
    expect(result.stopReason).toBe('interrupted');
  });
});

describe('a state that cannot be resumed is refused, saying why', () => {
  async function pausedState(options = {}) {
    const paused = await run(desk([ask(80)]), 'Refund', { ...deterministic(), ...options });
    return JSON.parse(JSON.stringify(paused.state)) as RunStateSnapshot;
  }
  const approve = [{ callId: 'r1', decision: 'approve' as const }];

  it('a changed state', async () => {
    const state = await pausedState();
    const tampered = {
      ...state,
      turn: {
        ...state.turn,
        pending: [{ ...state.turn.pending[0]!, args: { order: 42, amount: 1 } }],
      },
    };
    await expect(resume(desk([]), tampered, { decisions: approve })).rejects.toThrow(
      /The run state was changed after it was made/,
    );
  });

  it('another version', async () => {
    const state = await pausedState();
    await expect(
      resume(desk([]), { ...state, version: 3 as never }, { decisions: approve }),
    ).rejects.toThrow(/The run state has version 3; this agent-trace reads version 2/);
  });

  it('not a state at all, or not JSON', async () => {
    await expect(resume(desk([]), { hello: 1 } as never, { decisions: approve })).rejects.toThrow(
      /Not a run state/,
    );
    await expect(resume(desk([]), '{nope', { decisions: approve })).rejects.toThrow(
      /The run state is not valid JSON/,
    );
  });

  it('a missing, unknown or doubled decision', async () => {
    const state = await pausedState();
    await expect(resume(desk([]), state, { decisions: [] })).rejects.toThrow(
      /No decision for 'r1': every pending call needs one/,
    );
    await expect(
      resume(desk([]), state, { decisions: [...approve, { callId: 'x', decision: 'approve' }] }),
    ).rejects.toThrow(/A decision names call 'x', which is not waiting for approval/);
    await expect(resume(desk([]), state, { decisions: [...approve, ...approve] })).rejects.toThrow(
      /Call 'r1' has two decisions/,
    );
  });

  it('another agent graph', async () => {
    const state = await pausedState();
    await expect(
      resume(agent({ name: 'other', model: fakeLLM([]) }), state, { decisions: approve }),
    ).rejects.toThrow(/made by a run of agent 'desk', not 'other'/);
  });

  it('sealed with a secret: the same secret resumes, another (or none) is refused', async () => {
    const state = await pausedState({ stateSecret: 's3cret' });
    await expect(
      resume(desk([]), state, { decisions: approve, stateSecret: 'other' }),
    ).rejects.toThrow(/does not match its integrity for this stateSecret/);
    await expect(resume(desk([]), state, { decisions: approve })).rejects.toThrow(/was changed/);
    const done = await resume(desk([{ text: 'ok' }]), state, {
      decisions: approve,
      stateSecret: 's3cret',
    });
    expect(done.stopReason).toBe('completed');
  });
});

describe('a paused and resumed run, shown', () => {
  async function approvedTrace() {
    const sink = memorySink();
    await runWithApprover(
      desk([ask(80), { text: 'Refunded.' }]),
      'Refund order 42',
      approveAll('ana'),
      { trace: sink, ...deterministic() },
    );
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-approvals-'));
    const path = join(folder, 'approved.jsonl');
    writeFileSync(path, sink.events.map(event => `${JSON.stringify(event)}\n`).join(''));
    return { path, events: sink.events };
  }

  it('by replay: the pause, the decision, and the part that goes on', async () => {
    const { path } = await approvedTrace();
    const { code, stdout } = await cli(['replay', path]);
    expect(code).toBe(0);
    expect(stdout).toContain('waits for approval: tool refund {"order":42,"amount":80}  r1');
    expect(stdout).toContain('resumed after seq 6');
    expect(stdout).toContain('approval approved by ana: refund  r1');
    expect(stdout).toMatch(/stop: completed · 2 llm calls · 1 tool call/);
  });

  it('by stats: one run, its parts together', async () => {
    const { path } = await approvedTrace();
    const { stdout } = await cli(['stats', path]);
    expect(stdout.match(/^run /gm)).toHaveLength(1);
    expect(stdout).toMatch(/fake\/fake-model\s+2\s/);
  });

  it('over OTLP: the requests and decisions as span events', async () => {
    const { path } = await approvedTrace();
    const collector = await startOtlpReceiver();
    try {
      expect((await cli(['export', path, '--otlp', collector.url])).code).toBe(0);
      await collector.waitForSpans(7);
      const events = collector.spans.flatMap(span => span.events.map(event => event.name));
      expect(events).toEqual(
        expect.arrayContaining(['agent_trace.approval_requested', 'agent_trace.approval_resolved']),
      );
    } finally {
      await collector.close();
    }
  });
});

describe('a call that needs approval inside a delegated agent', () => {
  const lookups: number[] = [];
  const lookup = tool({
    name: 'lookup',
    description: 'Look an order up',
    input: z.object({ order: z.number() }),
    execute: ({ order }) => {
      lookups.push(order);
      return { order, total: 120 };
    },
  });
  /** A lead that asks a billing agent (which refunds) and looks the order up, in one step. */
  const lead = (leadScript: readonly FakeLLMStep[], billingScript: readonly FakeLLMStep[]) => {
    const billing = agent({ name: 'billing', model: fakeLLM(billingScript), tools: [refund] });
    return agent({
      name: 'lead',
      model: fakeLLM(leadScript),
      tools: [lookup, billing.asTool({ name: 'ask_billing' })],
    });
  };

  it('pauses the whole run, and resumes inside the delegate: the other calls are not run again', async () => {
    lookups.length = 0;
    const sink = memorySink();
    const paused = await run(
      lead(
        [
          {
            toolCalls: [
              { name: 'ask_billing', args: { input: 'refund order 42' }, id: 'b1' },
              { name: 'lookup', args: { order: 42 }, id: 'l1' },
            ],
          },
        ],
        [ask(80)],
      ),
      'Refund order 42',
      { trace: sink, ...deterministic() },
    );
    expect(paused.stopReason).toBe('interrupted');
    expect(paused.interruptions).toMatchObject([
      { callId: 'r1', agent: 'billing', toolName: 'refund' },
    ]);
    expect(paused.detail).toBe(
      "the run waits: agent 'billing' needs a person's approval of 'refund'",
    );
    expect(lookups).toEqual([42]);
    expect(refunds).toEqual([]);

    const state = JSON.parse(JSON.stringify(paused.state)) as RunStateSnapshot;
    const leadModel = fakeLLM([{ text: 'Refunded 80 on order 42 (total 120).' }]);
    const billing = agent({
      name: 'billing',
      model: fakeLLM([{ text: 'Refunded 80.' }]),
      tools: [refund],
    });
    const resumed = await resume(
      agent({
        name: 'lead',
        model: leadModel,
        tools: [lookup, billing.asTool({ name: 'ask_billing' })],
      }),
      state,
      {
        decisions: [{ callId: 'r1', decision: 'approve', by: 'ana' }],
        trace: sink,
        ...deterministic(),
      },
    );
    expect(resumed).toMatchObject({
      stopReason: 'completed',
      output: 'Refunded 80 on order 42 (total 120).',
    });
    expect(refunds).toEqual([{ order: 42, amount: 80 }]);
    expect(lookups).toEqual([42]);
    // The lead's model got both results, in the order it asked for them.
    expect(leadModel.calls[0]?.messages.slice(-2)).toEqual([
      {
        role: 'tool',
        callId: 'b1',
        toolName: 'ask_billing',
        content: 'Refunded 80.',
        isError: false,
      },
      {
        role: 'tool',
        callId: 'l1',
        toolName: 'lookup',
        content: '{"order":42,"total":120}',
        isError: false,
      },
    ]);
    const report = validateTrace(sink.events);
    expect(report.problems).toEqual([]);
    expect(report.runs).toHaveLength(1);
    expect(sink).toHaveResolvedApproval('refund', 'approved');
  });
});
