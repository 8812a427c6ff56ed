/**
 * A conversation: three turns with one desk, each a run that starts from what the turns before
 * left (`conversation()`); and the same conversation gone on with in a second process from its
 * trace (`conversationFromTrace`).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { agent } from '@agent-trace/core';
import { conversation } from '@agent-trace/core/conversation';
import { jsonlSink } from '@agent-trace/trace';
import { expect } from 'vitest';
import { z } from 'zod';
import { everyChange, instructions, plantedTool, plantedTools, script } from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

const exec = promisify(execFile);

/** What the customer says, turn by turn. */
export const customerTurns = ['Is order 42 here?', 'And order 43?', 'Thanks!'] as const;

/** The desk's tools, `change` planted: an order's status, and a refund. */
export function deskTools(change?: Change) {
  const order = plantedTool(change, {
    name: 'order',
    description: 'An order by id',
    input: z.object({ id: z.number() }),
    execute: ({ id }) => ({ id, status: id === 42 ? 'delivered' : 'shipped' }),
  });
  const refund = plantedTool(change, {
    name: 'refund',
    description: 'Refunds an order',
    input: z.object({ id: z.number() }),
    execute: ({ id }) => ({ id, refunded: true }),
  });
  return plantedTools(change, 'refund', [order, refund]);
}

export function build(change?: Change) {
  return agent({
    name: 'desk',
    instructions: instructions(change, 'Help customers with orders.'),
    model: script([
      { toolCalls: [{ name: 'order', args: { id: 42 } }] },
      { text: 'Order 42 was delivered.' },
      { toolCalls: [{ name: 'order', args: { id: 43 } }] },
      { text: 'Order 43 has shipped.' },
      { text: 'You are welcome.' },
    ]),
    tools: deskTools(change),
  });
}

/** Takes `turns` of the customer's messages with today's desk, into `file`. */
export async function takeTurns(file: string, turns: readonly string[], id = 'chat-1') {
  const trace = jsonlSink(file);
  try {
    const chat = conversation(build(), { trace, id });
    for (const message of turns) await chat.send(message);
  } finally {
    await trace.close();
  }
}

export const conversationChecks = {
  build,
  runs: 3,
  changes: everyChange('desk', { changed: 'order', removed: 'refund' }),
  holds: (events: Parameters<NonNullable<Shape['holds']>>[0]) =>
    expect(
      events.flatMap(event => (event.event === 'run_start' ? [event.conversation?.turn] : [])),
    ).toEqual([1, 2, 3]),
} satisfies Partial<Shape>;

export const shape: Shape = {
  name: 'a conversation of three turns',
  module: 'test/conformance/shapes/conversation.ts',
  record: file => takeTurns(file, customerTurns),
  ...conversationChecks,
};

/** The same conversation: two turns in one process, the third in another from the trace. */
export const acrossProcesses: Shape = {
  name: 'a conversation gone on with in a second process',
  module: 'test/conformance/shapes/conversation.ts',
  record: async file => {
    const processScript = 'test/conformance/shapes/conversation-process.ts';
    await exec(process.execPath, ['--import', 'tsx', processScript, 'first', file]);
    await exec(process.execPath, ['--import', 'tsx', processScript, 'then', file]);
  },
  ...conversationChecks,
};

export default build();
