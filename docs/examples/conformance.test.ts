// docs/guide/conformance.md: several runs of a file, and a fork that decides a pause anew.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, resume, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { forkTrace, jsonlSink, recordedEvents, recordedRuns, rerunTrace } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';

const refund = tool({
  name: 'refund',
  description: 'Refunds an order',
  input: z.object({ order: z.number() }),
  needsApproval: true,
  execute: ({ order }) => ({ order, refunded: true }),
});
const desk = (steps: Parameters<typeof fakeLLM>[0] = []) =>
  agent({ name: 'desk', model: fakeLLM(steps, { allowUnusedSteps: true }), tools: [refund] });

it('reruns each run of a file, and forks a paused run with another decision', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-')), 'desk.jsonl');
  for (const order of [1, 2]) {
    const sink = jsonlSink(file);
    const paused = await run(
      desk([{ toolCalls: [{ name: 'refund', args: { order } }] }]),
      `Refund ${order}`,
      { trace: sink },
    );
    await resume(desk([{ text: 'Refunded.' }]), paused.state!, {
      decisions: [{ callId: paused.interruptions[0]!.callId, decision: 'approve', by: 'ana' }],
      trace: sink,
    });
    await sink.close();
  }

  const events = await recordedEvents(file);
  for (const runId of recordedRuns(events)) {
    const report = await rerunTrace(events, desk(), { runId });
    report.same; // true: both parts of each run, through the recorded approval
  }

  const report = await forkTrace(file, desk(), {
    afterStep: 1,
    model: fakeLLM([{ text: 'Refused, as you asked.' }]),
    decisions: [{ callId: 'refund', decision: 'reject', by: 'lee', reason: 'try the fork' }],
  });
  report.result; // { stopReason: 'completed', output: 'Refused, as you asked.', … }

  expect(report.result).toMatchObject({ output: 'Refused, as you asked.' });
  const runs = recordedRuns(events);
  expect(runs).toHaveLength(2);
  for (const runId of runs) expect((await rerunTrace(events, desk(), { runId })).same).toBe(true);
});
