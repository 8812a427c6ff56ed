import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fakeLLM } from '@agent-trace/testing';
import { alignTraces, compareTraces, forkTrace } from '@agent-trace/trace';
import { reviewDesk, type ModelFor } from '../../examples/document-review/agents.js';
import { scriptSafeJson, viewerHtml } from '@agent-trace/viewer';
import { agentGraph } from '../../packages/viewer/app/model/agent-graph.js';
import { buildRuns, type RunModel } from '../../packages/viewer/app/model/run-model.js';
import type { ListRows } from '../../packages/viewer/app/model/run-rows.js';

/** Every row of a run the page holds whole. */
const rowsOf = (run: RunModel | undefined) => (run!.rows as ListRows).list;
import { deskEvents, deskWithStrictGuard, markup } from './viewer-support.js';

/** The desk's own scripts go unused in a fork: the recording and the new model answer. */
const unusedScripts: ModelFor = (_agent, script, modelId) =>
  fakeLLM(script, { modelId, allowUnusedSteps: true });

describe("the viewer's model of a run", () => {
  it('nests every span under its parent, descendants right after it', async () => {
    const [run] = buildRuns(await deskEvents());
    expect(run!.stopReason).toBe('completed');
    const rows = rowsOf(run);
    for (const row of rows) {
      for (let inside = row.index + 1; inside < row.subtreeEnd; inside++)
        expect(rows[inside]!.depth).toBeGreaterThan(row.depth);
      expect(rows[row.subtreeEnd]?.depth ?? 0).toBeLessThanOrEqual(row.depth);
    }
    expect(run!.totals).toMatchObject({
      llmCalls: 15,
      toolCalls: 10,
      errors: 1,
      tokensIn: 3240,
      tokensOut: 394,
    });
  });

  it('shows a run still being written as open: spans without an end, no stop reason', async () => {
    const events = await deskEvents();
    const [run] = buildRuns(
      events.slice(
        0,
        events.findIndex(event => event.event === 'tool_end'),
      ),
    );
    expect(run!.stopReason).toBeUndefined();
    expect(
      rowsOf(run)
        .filter(row => row.status === 'open')
        .map(row => row.kind),
    ).toEqual(expect.arrayContaining(['run', 'agent', 'tool']));
  });

  it('says where a run comes from: a fork of a recorded run', async () => {
    const recorded = await deskEvents();
    const { events } = await forkTrace(recorded, reviewDesk(unusedScripts), {
      afterStep: 2,
      model: fakeLLM([{ text: 'What if.' }], {
        modelId: 'what-if',
        onUnexpectedCall: () => ({ text: 'What if.' }),
      }),
    });
    const [run] = buildRuns(events);
    expect(rowsOf(run)[0]!.summary).toMatch(/^forked from run \S+ after step 2 · stop: /);
  });

  it('totals the cost of the priced calls and counts the unpriced ones', async () => {
    const [unpriced] = buildRuns(await deskEvents());
    expect(unpriced!.totals).toMatchObject({ costUsd: 0, unpricedCalls: 15 });
    const priced = await deskEvents((_agent, script, modelId) =>
      fakeLLM(script, { modelId, provider: 'openai.chat' }),
    );
    const [run] = buildRuns(priced);
    expect(run!.totals.unpricedCalls).toBe(0);
    const sum = priced.reduce(
      (total, event) => total + (event.event === 'llm_end' ? (event.cost_usd ?? 0) : 0),
      0,
    );
    expect(run!.totals.costUsd).toBeCloseTo(sum, 12);
    expect(run!.totals.costUsd).toBeGreaterThan(0);
  });

  it('counts handoffs and delegations between agents for the graph', async () => {
    const graph = agentGraph(await deskEvents());
    expect(graph.edges).toEqual(
      expect.arrayContaining([
        { from: 'coordinator', to: 'style', kind: 'delegation', count: 1 },
        { from: 'coordinator', to: 'evaluator', kind: 'handoff', count: 1 },
      ]),
    );
    expect(graph.nodes.find(node => node.agent === 'coordinator')).toMatchObject({ column: 0 });
    expect(new Set(graph.nodes.filter(node => node.column === 1).map(node => node.agent))).toEqual(
      new Set(['style', 'references', 'drafting', 'guard', 'evaluator']),
    );
  });
});

describe('the page', () => {
  it('holds the data so that no </script> or <!-- in it can end its element', () => {
    const json = scriptSafeJson({ text: markup, comment: '<!-- x -->' });
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual({ text: markup, comment: '<!-- x -->' });
  });

  it("lets only its own script run: the policy names the inlined script's hash", () => {
    const html = viewerHtml({ mode: 'trace', title: `<b>${markup}</b>`, files: [] });
    const script = /<script>(.*)<\/script>/s.exec(html)![1]!;
    const hash = createHash('sha256').update(script).digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain('<title>&lt;b&gt;&lt;script&gt;');
  });
});

describe('alignTraces', () => {
  it('lines up both runs whole; its differences are what compareTraces reports', async () => {
    const before = await deskEvents();
    const after = await deskWithStrictGuard();
    const steps = alignTraces(before, after);
    const differing = steps.filter(step => step.kind !== 'same');
    expect(differing.length).toBe(compareTraces(before, after).length);
    expect(
      steps.filter(step => step.expected !== undefined).map(step => step.expected!.seq),
    ).toEqual([
      ...new Set(steps.flatMap(step => (step.expected === undefined ? [] : [step.expected.seq]))),
    ]);
    expect(alignTraces(before, before).every(step => step.kind === 'same')).toBe(true);
  });
});
