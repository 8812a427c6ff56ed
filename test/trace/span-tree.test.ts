/**
 * The one span model of a trace (`@agent-trace/trace/model`), which replay, fork and the viewer
 * show: a resumed run's parts are roots of their own; nothing is hidden.
 */
import { agent, tool, type TraceEvent } from '@agent-trace/core';
import { approveAll, fakeLLM, runWithApprover } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { buildRunTrees, isSpanNode, runTotals, type SpanNode } from '@agent-trace/trace/model';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deterministic } from '../support/deterministic.js';

async function pausedAndResumed(): Promise<TraceEvent[]> {
  const refund = tool({
    name: 'refund',
    description: 'Refunds',
    input: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => `refunded ${amount}`,
  });
  const sink = memorySink();
  await runWithApprover(
    agent({
      name: 'desk',
      model: fakeLLM([
        { toolCalls: [{ name: 'refund', args: { amount: 80 } }] },
        { text: 'Done.' },
      ]),
      tools: [refund],
    }),
    'Refund',
    approveAll('ana'),
    { trace: sink, ...deterministic() },
  );
  return sink.events;
}

const kinds = (node: SpanNode): string[] =>
  node.children.map(child => (isSpanNode(child) ? child.start.event : child.event));

describe('buildRunTrees', () => {
  it('makes each part of a resumed run a root of its own, with the same run id', async () => {
    const events = await pausedAndResumed();
    const trees = buildRunTrees(events);
    expect(trees).toHaveLength(2);
    expect(trees.map(tree => tree.run)).toEqual([events[0]!.run, events[0]!.run]);
    expect(trees[1]!.root.start).toMatchObject({ event: 'run_start', resumed: { after_seq: 6 } });
    expect(trees.map(tree => tree.root.end?.event)).toEqual(['run_end', 'run_end']);
    const [firstAgent] = trees[0]!.root.children as SpanNode[];
    expect(kinds(firstAgent!)).toEqual(['llm_start', 'approval_requested']);
    const [secondAgent] = trees[1]!.root.children as SpanNode[];
    expect(kinds(secondAgent!)).toEqual(['approval_resolved', 'tool_start', 'llm_start']);
  });

  it('hangs an event whose parent is unknown under its run part, and leaves open spans open', async () => {
    const events = await pausedAndResumed();
    const cut = events.slice(0, -3); // the resumed part loses its last events
    const orphan = { ...events[9]!, seq: 99, parent_span_id: 'ffffffffffffffff' } as TraceEvent;
    const trees = buildRunTrees([...cut, orphan]);
    expect(trees[1]!.root.end).toBeUndefined();
    expect(trees[1]!.root.children).toContain(orphan);
  });

  it('counts a run from its calls, whether or not it was sealed', async () => {
    const events = await pausedAndResumed();
    expect(runTotals(events)).toMatchObject({ llmCalls: 2, toolCalls: 1, errors: 0 });
    expect(runTotals(events.slice(0, 5))).toMatchObject({ llmCalls: 1, toolCalls: 0 });
  });
});
