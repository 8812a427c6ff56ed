/**
 * The support desk example (examples/support-desk/), as its README promises: ten customers hold
 * conversations of up to eight turns, recorded to one trace; each reruns unchanged as the same
 * with no model call; a planted policy change is caught at the turn each conversation first asked
 * for a refund, in exactly those conversations; and the multi-turn eval's comparison names exactly
 * the customers the change broke.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModel } from '@agent-trace/core';
import { compareEvals, converse, runEval } from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import {
  formatDivergence,
  jsonlSink,
  readTrace,
  recordedConversations,
  rerunConversation,
  validateTrace,
} from '@agent-trace/trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, customerUser } from '../../examples/support-desk/customers.js';
import { deskFeatures, supportDesk } from '../../examples/support-desk/desk.js';
import { deskEval } from '../../examples/support-desk/desk-eval.js';
import { plantedPolicies } from '../../examples/support-desk/policies.js';
import { cli } from '../support/cli.js';

const folder = mkdtempSync(join(tmpdir(), 'agent-trace-support-desk-'));
const file = join(folder, 'support-desk.jsonl');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

beforeAll(async () => {
  const trace = jsonlSink(file);
  for (const customer of customers)
    await converse(supportDesk(), customerUser(customer), {
      id: customer.id,
      trace,
      features: deskFeatures(),
      maxTurns: 8,
    });
  await trace.close();
});

/** A desk whose model has no answers: counts any call, which a rerun must not make. */
function replaying(calls: { count: number }) {
  const empty = fakeLLM([]);
  const model: LanguageModel = {
    ...empty,
    generate: request => {
      calls.count++;
      return empty.generate(request);
    },
    stream: request => {
      calls.count++;
      return empty.stream(request);
    },
  };
  return supportDesk(model);
}

/** Each customer's conversation rerun with `features`: the turn it first diverged at, if any. */
async function rerunAll(features: ReturnType<typeof deskFeatures>) {
  const calls = { count: 0 };
  const diverged: Record<string, number> = {};
  for (const customer of customers) {
    const report = await rerunConversation(file, replaying(calls), {
      conversationId: customer.id,
      run: { features },
    });
    if (report.firstDivergence !== undefined) diverged[customer.id] = report.firstDivergence.turn;
  }
  return { diverged, calls: calls.count };
}

describe('the support desk example', () => {
  it('records ten conversations of up to eight turns, each reaching its goal', async () => {
    const events = [];
    for await (const event of readTrace(file)) events.push(event);
    expect(validateTrace(events).valid).toBe(true);
    const held = recordedConversations(events);
    expect(held.map(each => each.id)).toEqual(customers.map(customer => customer.id));
    expect(held.map(each => each.turns.length)).toEqual([2, 1, 1, 4, 1, 6, 2, 1, 3, 2]);
    expect(Math.max(...held.map(each => each.turns.length))).toBeLessThanOrEqual(8);
  });

  it('reruns every conversation unchanged as the same, with no model call', async () => {
    expect(await rerunAll(deskFeatures())).toEqual({ diverged: {}, calls: 0 });
  });

  it('catches a planted policy change at the turn each affected conversation first asked for a refund, and nowhere else', async () => {
    const { diverged, calls } = await rerunAll(deskFeatures(plantedPolicies));
    expect(diverged).toEqual({ ana: 2, dev: 4, fay: 6, gus: 2, jo: 2 });
    expect(calls).toBe(0);
    const report = await rerunConversation(file, replaying({ count: 0 }), {
      conversationId: 'ana',
      run: { features: deskFeatures(plantedPolicies) },
    });
    // The request's explanation shows the words of the policy that changed.
    const request = report.turns[1]?.report.differences.find(each =>
      each.expected?.includes('sends request'),
    );
    expect(request === undefined ? '' : formatDivergence(request)).toContain(
      'Refunds up to $[-100-]{+50+}',
    );
  });

  it("names exactly the customers the planted change broke in the eval's comparison", async () => {
    const today = await runEval(deskEval());
    expect(today.cases.map(each => each.scores.goal_reached?.score)).toEqual(
      customers.map(() => 1),
    );
    const comparison = compareEvals(today, await runEval(deskEval(plantedPolicies)));
    const goal = comparison.scorers.find(each => each.scorer === 'goal_reached');
    expect(goal?.regressed.map(each => each.id)).toEqual(['ana', 'fay', 'jo']);
  });

  it('reruns through the CLI: the same against the desk, by turn against the planted one', async () => {
    const same = await cli(['rerun', file, '--agent', 'examples/support-desk/desk.ts'], {
      NO_COLOR: '1',
    });
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('✓ all 23 runs: same behaviour');
    const planted = await cli(['rerun', file, '--agent', 'examples/support-desk/planted.ts'], {
      NO_COLOR: '1',
    });
    expect(planted.code).toBe(1);
    const divergedTurns = [
      ...planted.stdout.matchAll(/turn (\d) of conversation '(\w+)' \(\d+ events\)\n {2}✗/g),
    ].map(match => `${match[2]} ${match[1]}`);
    expect(divergedTurns).toEqual(['ana 2', 'dev 4', 'fay 6', 'gus 2', 'jo 2']);
  });
});
