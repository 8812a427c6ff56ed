/**
 * Conversations in `regress`: each of the agent's turns is a case, rerun from the history it was
 * recorded with and named by its turn; `--where` picks conversations through the `sessions` view;
 * a simulated user's own runs (its model's replies) are never rerun against the agent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { converse, regress, simulatedUser } from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, customerUser } from '../../examples/support-desk/customers.js';
import { deskFeatures, supportDesk } from '../../examples/support-desk/desk.js';
import { deskModel } from '../../examples/support-desk/desk-model.js';
import { deskPolicies, plantedPolicies } from '../../examples/support-desk/policies.js';
import { cli } from '../support/cli.js';

const folder = mkdtempSync(join(tmpdir(), 'agent-trace-conversation-regress-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

beforeAll(async () => {
  const trace = jsonlSink(join(folder, 'desk.jsonl'));
  for (const customer of customers)
    await converse(supportDesk(), customerUser(customer), {
      id: customer.id,
      trace,
      features: deskFeatures(),
    });
  // A customer played by a model: its replies are runs of its own in the trace.
  const played = simulatedUser({
    name: 'kim',
    persona: 'Kim, who wants to know where order 42 is',
    goal: 'where order 42 is',
    model: fakeLLM([{ text: 'Where is order 42?' }, { text: 'DONE' }]),
  });
  await converse(supportDesk(), played, { id: 'kim', trace, features: deskFeatures() });
  await trace.close();
});

const replaying = () => supportDesk(fakeLLM([]));
const turnsOf = (cases: readonly { turn?: { conversation: string; turn: number } }[]) =>
  cases.map(each => `${each.turn?.conversation} ${each.turn?.turn}`);

describe('regress over conversations', () => {
  it("reruns each of the agent's turns as the same, never a simulated user's reply", async () => {
    const result = await regress({
      library: folder,
      agent: replaying(),
      run: { features: deskFeatures() },
    });
    // 23 turns of the ten customers and kim's one: kim's model's two replies are not cases.
    expect(result.counts).toEqual({ same: 24, diverged: 0, continued: 0, failed: 0 });
    expect(result.cases.every(each => each.turn !== undefined)).toBe(true);
    expect(result.modelCalls).toBe(0);
  });

  it('names the turns a planted change diverges, and picks conversations through the sessions view', async () => {
    const planted = await regress({
      library: folder,
      agent: replaying(),
      run: { features: deskFeatures(plantedPolicies) },
    });
    const diverged = planted.cases.filter(each => each.status === 'diverged');
    expect(turnsOf(diverged).sort()).toEqual(['ana 2', 'dev 4', 'fay 6', 'gus 2', 'jo 2']);
    const long = await regress({
      library: folder,
      agent: replaying(),
      run: { features: deskFeatures() },
      where: 'conversation IN (SELECT session FROM sessions WHERE turns >= 4)',
    });
    expect(turnsOf(long.cases)).toEqual([
      'dev 1',
      'dev 2',
      'dev 3',
      'dev 4',
      'fay 1',
      'fay 2',
      'fay 3',
      'fay 4',
      'fay 5',
      'fay 6',
    ]);
  });

  it('goes on with a diverged conversation after its continued turn, a simulated user for the person', async () => {
    const packed = {
      ...deskPolicies,
      address: {
        topic: /\baddress/i,
        text: 'An address can be changed until the order is packed.',
      },
    };
    const result = await regress({
      library: folder,
      agent: replaying(),
      run: { features: deskFeatures(packed) },
      where: "conversation = 'jo'",
      continueWith: deskModel(),
      userModel: fakeLLM([{ text: 'Then I want a refund for order 50.' }], {
        allowUnusedSteps: true,
      }),
    });
    expect(turnsOf(result.cases)).toEqual(['jo 1', 'jo 2']);
    const [first, second] = result.cases;
    expect(first?.status).toBe('continued');
    expect(first?.conversation).toMatchObject({
      turns: 1,
      stopReason: 'max_turns',
      transcript: [
        { turn: 2, role: 'user', text: 'Then I want a refund for order 50.' },
        { turn: 2, role: 'agent', text: 'Refunded $60 for order 50.' },
      ],
    });
    // Its live calls: the turn continued from its first call (two), then the person and the desk (three).
    expect(first?.modelCalls).toBe(2 + 1 + 3);
    // The last turn of the recording has nothing after it: continued alone.
    expect(second?.status).toBe('continued');
    expect(second?.conversation).toBeUndefined();
  });

  it("says each diverged case's turn from the CLI", async () => {
    const { code, stdout } = await cli(
      ['regress', folder, '--agent', 'examples/support-desk/planted.ts', '--fail-on-divergence'],
      { NO_COLOR: '1' },
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/turn 2 of conversation 'ana' \("My order 41 arrived broken/);
    expect(stdout).toMatch(/turn 6 of conversation 'fay'/);
  });
});
