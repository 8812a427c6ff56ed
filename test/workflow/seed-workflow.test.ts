/**
 * The data-analysis pipeline of the design's workflow example, loaded from its YAML as written
 * and run with FakeTools: its parallel step's items run at the same time, and the trace comes
 * out the same every run.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sequentialIds, virtualClock } from '@agent-trace/core';
import { loadWorkflow, runWorkflow } from '@agent-trace/core/workflow';
import { compareGoldenTrace, fakeTool } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const directory = fileURLToPath(new URL('../../golden', import.meta.url));

/** The design's pipeline, as written there: the data-pipeline example's workflow.yaml. */
const seedWorkflowYaml = readFileSync(
  fileURLToPath(new URL('../../examples/data-pipeline/workflow.yaml', import.meta.url)),
  'utf8',
);

/** The pipeline's tools: three regions of sales, each analysed in 100 ms of (virtual) time. */
function pipelineTools() {
  let running = 0;
  const overlap = { most: 0 };
  const regions = ['north', 'south', 'west'];
  const tools = [
    fakeTool('data_collector', {
      respond: ({ source }) => ({
        source,
        rows: regions.map(region => ({ region, sales: region.length * 10 })),
      }),
    }),
    fakeTool<{ source: string; rows: { region: string; sales: number }[] }>('data_preprocessor', {
      input: z.object({
        source: z.string(),
        rows: z.array(z.object({ region: z.string(), sales: z.number() })),
      }),
      respond: ({ rows }) => rows.map(row => ({ region: row.region, sales: [row.sales] })),
    }),
    fakeTool<{ region: string; sales: number[] }>('analyzer', {
      input: z.object({ region: z.string(), sales: z.array(z.number()) }),
      respond: async ({ region, sales }, context) => {
        running++;
        overlap.most = Math.max(overlap.most, running);
        await context.clock.sleep?.(100, context.abortSignal);
        running--;
        return { region, total: sales.reduce((sum, value) => sum + value, 0) };
      },
    }),
    fakeTool<{ region: string; total: number }[]>('report_generator', {
      input: z.array(z.object({ region: z.string(), total: z.number() })),
      respond: totals =>
        `Sales: ${totals.map(({ region, total }) => `${region} ${total}`).join(', ')}`,
    }),
  ];
  return { tools, overlap };
}

async function runSeed() {
  const { tools, overlap } = pipelineTools();
  const pipeline = loadWorkflow(seedWorkflowYaml, { file: 'workflow.yaml', tools });
  const sink = memorySink();
  const result = await runWorkflow(
    pipeline,
    { source: 'sales.csv' },
    {
      trace: sink,
      clock: virtualClock(),
      ids: sequentialIds(),
      session: 'workflow-seed',
    },
  );
  return { result, events: sink.events, overlap, tools };
}

describe("the design's workflow.yaml", () => {
  it('runs every step in order, the parallel step once per item, all items at once', async () => {
    const { result, events, overlap, tools } = await runSeed();
    expect(result.status).toBe('completed');
    expect(result.stopReason).toBe('completed');
    expect(result.output).toBe('Sales: north 50, south 50, west 40');
    expect(result.steps.map(step => [step.name, step.status, step.attempts])).toEqual([
      ['データ収集', 'completed', 1],
      ['前処理', 'completed', 1],
      ['分析', 'completed', 1],
      ['レポート生成', 'completed', 1],
    ]);
    // The three analyses overlapped: all three were running at once, and took 100 ms together.
    expect(overlap.most).toBe(3);
    const starts = new Set(tools[2]?.calls.map(call => call.startedAtMs));
    expect(starts.size).toBe(1);
    const analysis = events.find(
      event => event.event === 'workflow_step_end' && event.name === '分析',
    );
    expect(analysis?.event === 'workflow_step_end' && analysis.duration_ms).toBe(100);
    expect(validateTrace(events).problems).toEqual([]);
  });

  it('writes the same trace every run, and it matches its golden trace', async () => {
    const first = (await runSeed()).events;
    const second = (await runSeed()).events;
    expect(second).toEqual(first);
    const call = ['tool_start', 'tool_end'];
    const step = (...calls: string[][]) => [
      'workflow_step_start',
      ...calls.flat(),
      'workflow_step_end',
    ];
    expect(first.map(event => event.event)).toEqual([
      'run_start',
      'workflow_start',
      ...step(call),
      ...step(call),
      ...step(call, call, call), // the three regions, in input order
      ...step(call),
      'workflow_end',
      'run_end',
    ]);
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('workflow-seed', first, { directory }),
    );
  });
});
