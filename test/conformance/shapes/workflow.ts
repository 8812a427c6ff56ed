/**
 * A workflow: a tool step, then two steps at once (a tool, and an agent whose refund waits for a
 * person), then a sign-off step that waits too, then publishing. Paused twice, resumed twice.
 */
import { agent, sequentialIds, steppingClock, tool } from '@agent-trace/core';
import { resumeWorkflow, runWorkflow, workflow } from '@agent-trace/core/workflow';
import { jsonlSink } from '@agent-trace/trace';
import { expect } from 'vitest';
import { z } from 'zod';
import { instructions, plantedTool, plantedTools, script, everyChange } from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

/** Today's workflow; `part` says which process builds it (a FakeLLM script goes on where it paused). */
export function build(change?: Change, part: 'first' | 'resumed' = 'first') {
  const collect = tool({
    name: 'collect',
    description: 'Collects the tickets',
    input: z.object({ source: z.string() }),
    execute: ({ source }) => ({ source, tickets: [1, 2, 3] }),
  });
  const count = tool({
    name: 'count',
    description: 'Counts the tickets',
    input: z.unknown(),
    execute: () => 3,
  });
  const publish = tool({
    name: 'publish',
    description: 'Publishes a note',
    input: z.unknown(),
    execute: () => 'published',
  });
  const refund = tool({
    name: 'refund',
    description: 'Refunds a ticket',
    input: z.object({ ticket: z.number() }),
    needsApproval: true,
    execute: ({ ticket }) => `ticket ${ticket} refunded`,
  });
  const lookup = plantedTool(change, {
    name: 'lookup',
    description: 'Looks a ticket up',
    input: z.object({ ticket: z.number() }),
    execute: ({ ticket }) => ({ ticket, refundable: true }),
  });
  const refunder = agent({
    name: 'refunder',
    instructions: instructions(change, 'Refund refundable tickets.'),
    model: script(
      [
        { toolCalls: [{ name: 'lookup', args: { ticket: 2 } }] },
        { toolCalls: [{ name: 'refund', args: { ticket: 2 } }] },
        { text: 'Ticket 2 refunded.' },
      ].slice(part === 'first' ? 0 : 2),
    ),
    tools: plantedTools(change, 'lookup', [lookup, refund]),
  });
  return workflow({
    name: 'tickets',
    steps: [
      { name: 'collect', tool: collect, input: { source: '${input.source}' } },
      { name: 'count', tool: count, dependsOn: ['collect'] },
      { name: 'refunds', agent: refunder, dependsOn: ['collect'] },
      { name: 'sign-off', approval: 'Publish?', dependsOn: ['count', 'refunds'] },
      { name: 'publish', tool: publish, dependsOn: ['sign-off'] },
    ],
  });
}

/**
 * Records the workflow: run, paused twice, resumed twice; with `fresh`, each part with counting
 * ids and a stepping clock of its own that start over, as a new process's do.
 */
async function recordWorkflow(file: string, fresh: boolean): Promise<void> {
  const own = () => (fresh ? { ids: sequentialIds(), clock: steppingClock() } : {});
  let sink = jsonlSink(file);
  const first = await runWorkflow(build(), { source: 'inbox' }, { trace: sink, ...own() });
  await sink.close();
  expect(first.status).toBe('interrupted');
  sink = jsonlSink(file);
  const second = await resumeWorkflow(build(undefined, 'resumed'), first.state!, {
    decisions: first.interruptions.map(call => ({
      callId: call.callId,
      decision: 'approve',
      by: 'ana',
    })),
    trace: sink,
    ...own(),
  });
  await sink.close();
  expect(second.status).toBe('interrupted');
  sink = jsonlSink(file);
  const third = await resumeWorkflow(build(undefined, 'resumed'), second.state!, {
    decisions: [{ callId: 'sign-off', decision: 'approve', by: 'lee' }],
    trace: sink,
    ...own(),
  });
  await sink.close();
  expect(third.status).toBe('completed');
}

export const shape: Shape = {
  name: 'workflow (steps at once, an agent step that pauses, a sign-off)',
  module: 'test/conformance/shapes/workflow.ts',
  record: file => recordWorkflow(file, false),
  build: change => build(change),
  changes: everyChange('refunder', { changed: 'lookup', removed: 'lookup' }),
  holds: events => {
    expect(events.filter(e => e.event === 'run_start')).toHaveLength(3);
    expect(events.filter(e => e.event === 'approval_resolved')).toHaveLength(2);
  },
};

/** The same workflow, each part resumed as a new process would: ids and clock starting over. */
export const freshParts: Shape = {
  ...shape,
  name: 'workflow resumed twice, each part with its own counting ids and stepping clock',
  record: file => recordWorkflow(file, true),
  holds: events => {
    shape.holds?.(events);
    const spans = events.filter(e => e.event.endsWith('_start'));
    expect(new Set(spans.map(e => e.span_id)).size).toBe(spans.length);
  },
};

export default build();
