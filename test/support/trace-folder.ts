/**
 * Folders of traces for the trace library's tests and bench: real runs of a support desk (fakes,
 * no network), written once, then copied under new run ids, times and files.
 */
import { agent, handoff, run, sequentialIds, steppingClock, tool } from '@agent-trace/core';
import { defaultPrices } from '@agent-trace/core/cost';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const prices = { 'fake:gpt-4o-mini': defaultPrices['openai:gpt-4o-mini']! };

/** The kinds of run a folder holds: refunded, a refund that fails, a question answered. */
export type DeskRun = 'refunded' | 'refund_fails' | 'answered';

/** One run of the desk, its events as JSONL lines, its run id `run-0`. */
export async function deskRunLines(kind: DeskRun): Promise<string[]> {
  const lookup = tool({
    name: 'lookup',
    description: 'Look an order up',
    input: z.object({ order: z.string() }),
    execute: ({ order }) => ({ order, status: 'delivered broken', refundable: true }),
  });
  const refund = tool({
    name: 'refund',
    description: 'Refund an order',
    input: z.object({ order: z.string() }),
    execute: ({ order }) => {
      if (kind === 'refund_fails') throw new Error(`the payment provider refused ${order}`);
      return { order, refunded: true };
    },
  });
  const model = (script: Parameters<typeof fakeLLM>[0]) =>
    fakeLLM(script, { modelId: 'gpt-4o-mini', allowUnusedSteps: true });
  const billing = agent({
    name: 'billing',
    instructions: 'Refund refundable orders.',
    tools: [lookup, refund],
    limits: { maxSteps: 3 },
    model: model([
      { toolCalls: [{ name: 'lookup', args: { order: 'A-1' } }] },
      { toolCalls: [{ name: 'refund', args: { order: 'A-1' } }] },
      kind === 'refund_fails'
        ? {
            toolCalls: [{ name: 'refund', args: { order: 'A-1' } }],
            usage: { promptTokens: 2_000, completionTokens: 500 },
          }
        : { text: 'Order A-1 is refunded.' },
    ]),
  });
  const triage = agent({
    name: 'triage',
    instructions: 'Send refunds to billing; answer the rest.',
    handoffs: [handoff(billing)],
    model: model([
      kind === 'answered'
        ? { text: 'We ship within two days.' }
        : { toolCalls: [{ name: 'transfer_to_billing', args: {} }] },
    ]),
  });
  const sink = memorySink();
  const input = kind === 'answered' ? 'When do you ship?' : 'Refund order A-1, it arrived broken.';
  await run(triage, input, {
    trace: sink,
    prices,
    ids: sequentialIds(),
    clock: steppingClock({ startMs: Date.parse('2026-11-01T09:00:00Z') }),
  });
  const runId = sink.events[0]!.run;
  return sink.events.map(event =>
    JSON.stringify({
      ...event,
      run: 'run-0',
      session: runId === event.session ? 'run-0' : event.session,
    }),
  );
}

/** The lines of a desk run under a new run id, shifted to start `shiftMs` later. */
export function copiedRun(lines: readonly string[], runId: string, shiftMs: number): string {
  return lines
    .map(line => {
      const event = JSON.parse(line) as { run: string; session: string; time: string };
      event.run = runId;
      event.session = runId;
      event.time = new Date(Date.parse(event.time) + shiftMs).toISOString();
      return JSON.stringify(event);
    })
    .join('\n')
    .concat('\n');
}

/**
 * Writes `files` trace files of `runsPerFile` runs each into `folder`, runs of every kind in turn,
 * an hour apart; returns the run ids by kind.
 */
export async function writeDeskFolder(
  folder: string,
  files: number,
  runsPerFile: number,
): Promise<Record<DeskRun, string[]>> {
  const kinds: DeskRun[] = ['refunded', 'refund_fails', 'answered'];
  const lines = Object.fromEntries(
    await Promise.all(kinds.map(async kind => [kind, await deskRunLines(kind)] as const)),
  ) as Record<DeskRun, string[]>;
  const byKind: Record<DeskRun, string[]> = { refunded: [], refund_fails: [], answered: [] };
  mkdirSync(folder, { recursive: true });
  let n = 0;
  for (let file = 0; file < files; file++) {
    let text = '';
    for (let index = 0; index < runsPerFile; index++, n++) {
      const kind = kinds[n % kinds.length]!;
      const runId = `run-${String(n).padStart(6, '0')}`;
      byKind[kind].push(runId);
      text += copiedRun(lines[kind], runId, n * 3_600_000);
    }
    writeFileSync(join(folder, `desk-${String(file).padStart(5, '0')}.jsonl`), text);
  }
  return byKind;
}
