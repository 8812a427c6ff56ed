/**
 * The data-analysis pipeline of the design's workflow example, loaded from its YAML as written
 * and run with FakeTools. Its `parallel: true` says the step may run beside others (as the
 * design's comment reads), so the analysis gets the preprocessed regions whole; the same pipeline
 * with `for_each` analyses each region at once. Each trace comes out the same every run.
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

/** The same pipeline analysing each region on its own, all at once. */
const forEachYaml = seedWorkflowYaml.replace(
  /tool: "analyzer"\n(\s+)depends_on: \["前処理"\]\n\s+parallel: true[^\n]*/,
  'tool: "region_analyzer"\n$1depends_on: ["前処理"]\n$1for_each: steps["前処理"].output',
);

const Region = z.object({ region: z.string(), sales: z.array(z.number()) });
const total = ({ region, sales }: z.infer<typeof Region>) => ({
  region,
  total: sales.reduce((sum, value) => sum + value, 0),
});

/** The pipeline's tools: three regions of sales, each region analysed in 100 ms of (virtual) time. */
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
    fakeTool<z.infer<typeof Region>[]>('analyzer', {
      input: z.array(Region),
      respond: async (all, context) => {
        await context.clock.sleep?.(100 * all.length, context.abortSignal);
        return all.map(total);
      },
    }),
    fakeTool<z.infer<typeof Region>>('region_analyzer', {
      input: Region,
      respond: async (region, context) => {
        running++;
        overlap.most = Math.max(overlap.most, running);
        await context.clock.sleep?.(100, context.abortSignal);
        running--;
        return total(region);
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

async function runSeed(yaml = seedWorkflowYaml, session = 'workflow-seed') {
  const { tools, overlap } = pipelineTools();
  const pipeline = loadWorkflow(yaml, { file: 'workflow.yaml', tools });
  const sink = memorySink();
  const result = await runWorkflow(
    pipeline,
    { source: 'sales.csv' },
    { trace: sink, clock: virtualClock(), ids: sequentialIds(), session },
  );
  return { result, events: sink.events, overlap, tools };
}

const call = ['tool_start', 'tool_end'];
const step = (...calls: string[][]) => [
  'workflow_step_start',
  ...calls.flat(),
  'workflow_step_end',
];

describe("the design's workflow.yaml", () => {
  it('runs as written: every step in order, the analysis on the regions whole', async () => {
    const { result, events, tools } = await runSeed();
    expect(result.status).toBe('completed');
    expect(result.stopReason).toBe('completed');
    expect(result.output).toBe('Sales: north 50, south 50, west 40');
    expect(result.steps.map(record => [record.name, record.status, record.attempts])).toEqual([
      ['データ収集', 'completed', 1],
      ['前処理', 'completed', 1],
      ['分析', 'completed', 1],
      ['レポート生成', 'completed', 1],
    ]);
    expect(tools[2]?.calls).toHaveLength(1);
    // parallel: true is the step's permission to run beside others, not a fan-out.
    const start = events.find(event => event.event === 'workflow_start');
    expect(start?.event === 'workflow_start' && start.steps.map(s => s.parallel)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(validateTrace(events).problems).toEqual([]);
  });

  it('writes the same trace every run, and it matches its golden trace', async () => {
    const first = (await runSeed()).events;
    const second = (await runSeed()).events;
    expect(second).toEqual(first);
    expect(first.map(event => event.event)).toEqual([
      'run_start',
      'workflow_start',
      ...step(call),
      ...step(call),
      ...step(call),
      ...step(call),
      'workflow_end',
      'run_end',
    ]);
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('workflow-seed', first, { directory }),
    );
  });

  it('with for_each, analyses each region at once, in a stable trace', async () => {
    const { result, events, overlap, tools } = await runSeed(forEachYaml, 'workflow-for-each');
    expect(result.output).toBe('Sales: north 50, south 50, west 40');
    // The three analyses overlapped: all three were running at once, and took 100 ms together.
    expect(overlap.most).toBe(3);
    expect(new Set(tools[3]?.calls.map(made => made.startedAtMs)).size).toBe(1);
    const analysis = events.find(
      event => event.event === 'workflow_step_end' && event.name === '分析',
    );
    expect(analysis?.event === 'workflow_step_end' && analysis.duration_ms).toBe(100);
    expect(first(events, 'workflow_step_start', '分析')).toMatchObject({ items: 3 });
    expect(events.map(event => event.event)).toEqual([
      'run_start',
      'workflow_start',
      ...step(call),
      ...step(call),
      ...step(call, call, call), // the three regions, in input order
      ...step(call),
      'workflow_end',
      'run_end',
    ]);
    expect((await runSeed(forEachYaml, 'workflow-for-each')).events).toEqual(events);
    expect(validateTrace(events).problems).toEqual([]);
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('workflow-for-each', events, { directory }),
    );
  });
});

function first(events: readonly { event: string }[], kind: string, name: string) {
  return events.find(event => event.event === kind && (event as { name?: string }).name === name);
}
