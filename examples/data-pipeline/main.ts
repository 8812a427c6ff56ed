/**
 * `pnpm data-pipeline`: loads workflow.yaml (collect → clean → analyse → report), runs it on
 * sales.csv, prints the report, then replays and validates the trace (traces/data-pipeline.jsonl).
 * `pnpm data-pipeline plan`: a planner agent (FakeLLM, no API key) writes the workflow itself,
 * analysing each region at once (`for_each`); its first plan reads a file that does not exist,
 * the step fails, the planner is told and writes a second plan, which completes. `plan --live` asks a real model (OPENAI_API_KEY or
 * ANTHROPIC_API_KEY). `--trace <file>` writes the trace elsewhere.
 */
import { rmSync } from 'node:fs';
import { type LanguageModel } from '@agent-trace/core';
import { planAndRun, runWorkflow } from '@agent-trace/core/workflow';
import { anthropic } from '@agent-trace/core/anthropic';
import { openai } from '@agent-trace/core/openai';
import { processIo, runCli } from '@agent-trace/cli';
import { jsonlSink } from '@agent-trace/trace';
import pipeline from './pipeline.js';
import { plannerAgent, request } from './planner.js';
import { pipelineTools } from './tools.js';

const args = process.argv.slice(2);
const planning = args[0] === 'plan';
const live = args.includes('--live');

function liveModel(): LanguageModel | undefined {
  if ((process.env.OPENAI_API_KEY ?? '') !== '') return openai('gpt-4o-mini');
  if ((process.env.ANTHROPIC_API_KEY ?? '') !== '') return anthropic('claude-sonnet-4-6');
  return undefined;
}

const model = live ? liveModel() : undefined;
if (live && model === undefined) {
  process.stderr.write(
    'pnpm data-pipeline plan --live needs OPENAI_API_KEY or ANTHROPIC_API_KEY.\n' +
      'Set one, or run `pnpm data-pipeline plan` to use the FakeLLM planner.\n',
  );
  process.exit(2);
}
const traceFlag = args.indexOf('--trace');
const tracePath =
  (traceFlag === -1 ? undefined : args[traceFlag + 1]) ??
  `traces/data-pipeline${planning ? '-plan' : ''}.jsonl`;
rmSync(tracePath, { force: true });
const sink = jsonlSink(tracePath);
const io = processIo();

/** The report, or why there is none. */
function describe(output: unknown, detail: string | undefined): string {
  return typeof output === 'string' ? output : (detail ?? JSON.stringify(output));
}

let completed: boolean;
if (planning) {
  const result = await planAndRun(plannerAgent(model), request, {
    tools: pipelineTools,
    trace: sink,
    session: 'data-pipeline-plan',
  });
  for (const plan of result.plans)
    io.stdout(
      `plan ${plan.revision} (${plan.reason}): ${plan.verdict}${plan.status === undefined ? '' : `, ${plan.status}`}${plan.problems.length > 0 ? ` — ${plan.problems.join('; ')}` : ''}`,
    );
  io.stdout(`\n${describe(result.output, result.detail)}\n`);
  completed = result.stopReason === 'completed';
} else {
  const result = await runWorkflow(
    pipeline(),
    { source: 'sales.csv' },
    {
      trace: sink,
      session: 'data-pipeline',
    },
  );
  io.stdout(`${describe(result.output, result.detail)}\n`);
  completed = result.stopReason === 'completed';
}
await sink.close();
io.stdout(`Trace written to ${tracePath}.\n\n$ agent-trace replay ${tracePath}`);
const replayed = await runCli(['replay', tracePath], io);
io.stdout(`\n$ agent-trace validate ${tracePath}`);
const validated = await runCli(['validate', tracePath], io);
process.exitCode = (completed || live) && replayed === 0 && validated === 0 ? 0 : 1;
