// docs/guide/workflows-and-planning.md: the data pipeline from YAML, a workflow in code that
// waits for a sign-off, and a planned run.
import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agent, tool } from '@agent-trace/core';
import { loadWorkflow, planAndRun, runWorkflow, workflow } from '@agent-trace/core/workflow';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink as fileSink } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { plannerScript } from '../../examples/data-pipeline/planner.js';
import {
  analyzer,
  dataCollector,
  dataPreprocessor,
  pipelineTools,
  regionAnalyzer,
  reportGenerator,
} from '../../examples/data-pipeline/tools.js';

// The page's files are the data pipeline's (examples/data-pipeline/); its traces go to a folder
// of this test.
const pipelineDir = join(dirname(fileURLToPath(import.meta.url)), '../../examples/data-pipeline');
const readFileSync = (path: string, encoding: 'utf8') =>
  fs.readFileSync(join(pipelineDir, path), encoding);
const traces = mkdtempSync(join(tmpdir(), 'agent-trace-workflow-guide-'));
mkdirSync(join(traces, 'traces'));
const jsonlSink = (path: string) => fileSink(join(traces, path));

it('runs the pipeline of workflow.yaml on sales.csv', async () => {
  const pipeline = loadWorkflow(readFileSync('workflow.yaml', 'utf8'), {
    file: 'workflow.yaml',
    tools: [dataCollector, dataPreprocessor, analyzer, reportGenerator], // and agents: [...]
  });
  const result = await runWorkflow(
    pipeline,
    { source: 'sales.csv' },
    { trace: jsonlSink('traces/pipeline.jsonl') },
  );
  result.status; // 'completed' | 'failed' | 'interrupted' | 'aborted'
  result.output; // the final step's output; with several final steps, their outputs by name
  result.steps; // [{ name, status, output | error | reason, attempts }] in trace order

  expect(result.status).toBe('completed');
  expect(result.steps.map(step => step.status)).toEqual(result.steps.map(() => 'completed'));
});

it('waits for the sign-off before it publishes', async () => {
  const writer = agent({ name: 'writer', model: fakeLLM([{ text: 'North sold most.' }]) });
  const publish = tool({
    name: 'publish',
    description: 'Publishes a text',
    input: z.object({ text: z.string() }),
    execute: () => 'published',
  });

  const report = workflow({
    name: 'report',
    steps: [
      { name: 'collect', tool: dataCollector, input: { source: '${input.file}' } },
      { name: 'clean', tool: dataPreprocessor, dependsOn: ['collect'] },
      {
        name: 'analyse',
        tool: regionAnalyzer,
        dependsOn: ['clean'],
        forEach: 'steps.clean.output', // once per region, all at once
        retries: 2,
        timeoutMs: 5_000,
      },
      { name: 'summary', agent: writer, dependsOn: ['analyse'] },
      { name: 'sign-off', approval: 'Publish the summary?', dependsOn: ['summary'] },
      {
        name: 'publish',
        tool: publish,
        dependsOn: ['summary', 'sign-off'],
        input: { text: '${steps.summary.output}' },
      },
    ],
  });

  const result = await runWorkflow(report, { file: 'sales.csv' });
  expect(result.status).toBe('interrupted');
  expect(result.steps.map(step => [step.name, step.status])).toEqual([
    ['collect', 'completed'],
    ['clean', 'completed'],
    ['analyse', 'completed'],
    ['summary', 'completed'],
    ['sign-off', 'interrupted'],
  ]);
  // One analysis per region of sales.csv, in the regions' order.
  const analyses = result.steps.find(step => step.name === 'analyse')?.output as {
    region: string;
  }[];
  expect(analyses.map(analysis => analysis.region)).toEqual(['north', 'south', 'west', 'east']);
});

it('plans again when a step of the first plan fails', async () => {
  const model = fakeLLM(plannerScript);

  const planner = agent({ name: 'planner', model, instructions: 'You plan data work.' });
  const result = await planAndRun(planner, 'Report the sales by region from sales-2026.csv', {
    tools: pipelineTools,
    maxPlans: 3, // plans in all, refused ones included
    maxReplans: 1, // new plans after a failed step
    trace: jsonlSink('traces/plan.jsonl'),
  });
  result.plans; // [{ revision, reason, text, verdict, problems, workflow, steps, status }]

  expect(result.status).toBe('completed');
  expect(result.plans.map(plan => [plan.verdict, plan.status])).toEqual([
    ['accepted', 'failed'],
    ['accepted', 'completed'],
  ]);
});
