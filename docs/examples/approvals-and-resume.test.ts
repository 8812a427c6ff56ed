// docs/guide/approvals-and-resume.md: a refund over 50 waits for a person; the paused run's state
// is plain JSON, resumed later with the decision.
import * as fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, resume, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink as fileSink, readTrace } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';

// The page's paths (`traces/desk.jsonl`, `state.json`) are taken inside a folder of this test.
const dir = mkdtempSync(join(tmpdir(), 'agent-trace-approvals-'));
fs.mkdirSync(join(dir, 'traces'));
const inDir = (path: string) => join(dir, path);
const jsonlSink = (path: string) => fileSink(inDir(path));
const writeFileSync = (path: string, text: string) => fs.writeFileSync(inDir(path), text);
const readFileSync = (path: string, encoding: 'utf8') => fs.readFileSync(inDir(path), encoding);

const refunds: { order: number; amount: number }[] = [];
const issueRefund = (order: number, amount: number) => {
  refunds.push({ order, amount });
  return { refunded: amount };
};

it('pauses a refund over 50 for approval and goes on once a person approves it', async () => {
  const refund = tool({
    name: 'refund',
    description: 'Refunds an amount of an order',
    input: z.object({ order: z.number(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 50, // or true; a handoff: handoff(billing, { needsApproval: true })
    execute: ({ order, amount }) => issueRefund(order, amount),
  });
  const desk = agent({
    name: 'desk',
    model: fakeLLM([
      { toolCalls: [{ name: 'refund', args: { order: 42, amount: 120.5 }, id: 'refund_42' }] },
      { text: 'Order 42 is refunded in full.' },
    ]),
    tools: [refund],
  });

  const paused = await run(desk, 'Refund order 42 in full', {
    trace: jsonlSink('traces/desk.jsonl'),
  });
  paused.stopReason; // 'interrupted'
  paused.interruptions; // [{ callId, toolName: 'refund', kind: 'tool', agent: 'desk', args: { order: 42, amount: 120.5 } }]
  writeFileSync('state.json', JSON.stringify(paused.state)); // plain JSON: a file, a database row, a queue

  // Later, in this process or another one:
  const result = await resume(desk, readFileSync('state.json', 'utf8'), {
    decisions: [{ callId: 'refund_42', decision: 'approve', by: 'ana' }],
    // or { decision: 'reject', reason: 'over the limit' }, or { decision: 'edit', args: { order: 42, amount: 50 } }
    trace: jsonlSink('traces/desk.jsonl'),
  });

  expect(paused.stopReason).toBe('interrupted');
  expect(paused.interruptions).toEqual([
    {
      callId: 'refund_42',
      toolName: 'refund',
      kind: 'tool',
      agent: 'desk',
      args: { order: 42, amount: 120.5 },
    },
  ]);
  expect(result.stopReason).toBe('completed');
  expect(result.output).toBe('Order 42 is refunded in full.');
  expect(refunds).toEqual([{ order: 42, amount: 120.5 }]);
  const events = [];
  for await (const event of readTrace(inDir('traces/desk.jsonl'))) events.push(event);
  expect(events.filter(event => event.event === 'run_start')).toHaveLength(2);
  expect(events.find(event => event.event === 'approval_resolved')).toMatchObject({
    decision: 'approved',
    by: 'ana',
  });
});
