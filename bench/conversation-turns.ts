/**
 * Conversations of many turns: a loop of `run` calls with `history` (what a user writes without
 * `conversation()`), the same turns through `conversation()`, and `rerunConversation` of its
 * trace, each traced to JSONL, at several lengths, each length in a process of its own (capped).
 * A conversation's trace and rerun grow with its turns: 100 turns cost about twice 50.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, type LanguageModel, type Message } from '@agent-trace/core';
import { conversation } from '@agent-trace/core/conversation';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, rerunConversation } from '@agent-trace/trace';
import { timeIt } from './measure.js';

/** What one length measured (the medians of its rounds). */
export interface ConversationTurnsResult {
  readonly turns: number;
  /** A loop of `run(agent, message, { history })`, traced to JSONL. */
  readonly loopMs: number;
  readonly loopKb: number;
  /** The same turns through `conversation()`, traced to JSONL. */
  readonly recordMs: number;
  readonly recordKb: number;
  /** `rerunConversation` of that trace against an agent whose model has no answers of its own. */
  readonly rerunMs: number;
  readonly same: boolean;
  /** Model calls the rerun made: 0, answers come from the recording. */
  readonly modelCalls: number;
}

const question = (turn: number): string =>
  `Turn ${turn}: where is my order, and when does it come?`;

/** A desk that answers each turn in one model call. */
function desk(turns: number, counted: { calls: number } = { calls: 0 }) {
  const script = fakeLLM(
    Array.from({ length: turns }, (_, index) => ({
      text: `Answer ${index + 1}: your order is on its way and comes on Tuesday.`,
    })),
    { allowUnusedSteps: true },
  );
  const model: LanguageModel = {
    ...script,
    generate: request => {
      counted.calls++;
      return script.generate(request);
    },
  };
  return agent({ name: 'desk', instructions: 'Answer customers briefly.', model });
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** One round at `turns`: the loop, the conversation, its rerun. */
async function round(turns: number, folder: string) {
  const loopFile = join(folder, 'loop.jsonl');
  rmSync(loopFile, { force: true });
  const loopSink = jsonlSink(loopFile);
  const loopMs = await timeIt(async () => {
    const looped = desk(turns);
    let history: readonly Message[] = [];
    for (let turn = 1; turn <= turns; turn++)
      history = (await run(looped, question(turn), { history: [...history], trace: loopSink }))
        .messages;
  });
  await loopSink.close();
  const file = join(folder, 'conversation.jsonl');
  rmSync(file, { force: true });
  const sink = jsonlSink(file);
  const recordMs = await timeIt(async () => {
    const chat = conversation(desk(turns), { trace: sink });
    for (let turn = 1; turn <= turns; turn++) await chat.send(question(turn));
  });
  await sink.close();
  const counted = { calls: 0 };
  let same = false;
  const rerunMs = await timeIt(async () => {
    same = (await rerunConversation(file, desk(0, counted))).same;
  });
  return {
    loopMs,
    loopKb: statSync(loopFile).size / 1024,
    recordMs,
    recordKb: statSync(file).size / 1024,
    rerunMs,
    same,
    modelCalls: counted.calls,
  };
}

/** Measures `turns` over `rounds` rounds (the first a warm-up, left out). */
export async function measureConversationTurns(
  turns: number,
  rounds: number,
): Promise<ConversationTurnsResult> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-bench-turns-'));
  try {
    await round(turns, folder);
    const measured = [];
    for (let index = 0; index < rounds; index++) measured.push(await round(turns, folder));
    const last = measured.at(-1)!;
    return {
      turns,
      loopMs: median(measured.map(each => each.loopMs)),
      loopKb: last.loopKb,
      recordMs: median(measured.map(each => each.recordMs)),
      recordKb: last.recordKb,
      rerunMs: median(measured.map(each => each.rerunMs)),
      same: measured.every(each => each.same),
      modelCalls: measured.reduce((sum, each) => sum + each.modelCalls, 0),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The table: a row a length, and how the longest grew against the one before it. */
export function formatConversationTurns(results: readonly ConversationTurnsResult[]): string {
  const rows = results.map(
    each =>
      `${String(each.turns).padStart(5)} turns  loop ${each.loopMs.toFixed(1).padStart(7)} ms (${each.loopKb.toFixed(0).padStart(6)} KB)  ` +
      `conversation ${each.recordMs.toFixed(1).padStart(7)} ms (${each.recordKb.toFixed(0).padStart(5)} KB)  ` +
      `rerun ${each.rerunMs.toFixed(1).padStart(7)} ms = ${(each.rerunMs / each.loopMs).toFixed(2)}× the loop` +
      `${each.same ? '' : '  DIVERGED'}${each.modelCalls === 0 ? '' : `  ${each.modelCalls} model calls`}`,
  );
  const growth = conversationGrowth(results);
  if (growth !== undefined)
    rows.push(
      `${growth.from} → ${growth.to} turns (×${growth.turns.toFixed(1)}): rerun ×${growth.rerun.toFixed(2)}, conversation trace ×${growth.recordKb.toFixed(2)}, loop trace ×${growth.loopKb.toFixed(2)}`,
    );
  return rows.join('\n');
}

/** How the longest length grew against the one before it: linear is the turns' own factor. */
export function conversationGrowth(results: readonly ConversationTurnsResult[]):
  | {
      readonly from: number;
      readonly to: number;
      readonly turns: number;
      readonly rerun: number;
      readonly recordKb: number;
      readonly loopKb: number;
    }
  | undefined {
  const longest = results.at(-1);
  const before = results.at(-2);
  if (longest === undefined || before === undefined) return undefined;
  return {
    from: before.turns,
    to: longest.turns,
    turns: longest.turns / before.turns,
    rerun: longest.rerunMs / before.rerunMs,
    recordKb: longest.recordKb / before.recordKb,
    loopKb: longest.loopKb / before.loopKb,
  };
}

/**
 * The section of `pnpm bench`: each length in a compiled process of its own under the cell caps,
 * and its targets (`[target, met, value]`).
 */
export async function conversationSection(
  lengths: readonly number[],
  rounds: number,
  measure: (turns: number) => Promise<ConversationTurnsResult>,
): Promise<{
  readonly results: ConversationTurnsResult[];
  readonly targets: readonly (readonly [string, boolean, string])[];
}> {
  const results: ConversationTurnsResult[] = [];
  for (const turns of lengths) results.push(await measure(turns));
  const growth = conversationGrowth(results);
  const hundred = results.find(each => each.turns === 100);
  const targets: (readonly [string, boolean, string])[] = [];
  if (growth !== undefined)
    targets.push([
      `a conversation reruns in time linear in its turns: ${growth.from} → ${growth.to} turns, rerun and trace ≤ 1.25 × ${growth.turns.toFixed(0)}`,
      growth.rerun <= 1.25 * growth.turns && growth.recordKb <= 1.25 * growth.turns,
      `rerun ×${growth.rerun.toFixed(2)}, trace ×${growth.recordKb.toFixed(2)} (${rounds} rounds)`,
    ]);
  if (hundred !== undefined)
    targets.push([
      'a 100-turn conversation reruns the same with no model call in ≤ 1.5× a live loop of run with history',
      hundred.same && hundred.modelCalls === 0 && hundred.rerunMs <= 1.5 * hundred.loopMs,
      `${(hundred.rerunMs / hundred.loopMs).toFixed(2)}×`,
    ]);
  return { results, targets };
}
