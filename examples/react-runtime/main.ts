/**
 * `pnpm react-runtime`: a ReAct agent runtime (calculator, search, read-only SQL) answers three
 * questions on FakeLLM scripts (`--fake`, the default, no API key), writes
 * traces/react-runtime.jsonl, then replays and validates it.
 * `pnpm react-runtime --live`: the same questions to a real model (OPENAI_API_KEY or
 * ANTHROPIC_API_KEY), in ReAct text: no native tool calling is used.
 * `--trace <file>` writes the trace elsewhere.
 */
import { rmSync } from 'node:fs';
import { run, type LanguageModel } from '@agent-trace/core';
import { anthropic } from '@agent-trace/core/anthropic';
import { openai } from '@agent-trace/core/openai';
import { processIo, runCli } from '@agent-trace/cli';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { questions, type Question } from './questions.js';
import { reactRuntime, runtimeAnswer, type RuntimeAnswer } from './runtime.js';
import { calculator } from './tools/calculator.js';
import { databaseTool } from './tools/database.js';
import { search } from './tools/search.js';

/** A real model from the environment, or undefined without a key. */
function liveModel(environment: NodeJS.ProcessEnv): (() => LanguageModel) | undefined {
  if ((environment.OPENAI_API_KEY ?? '') !== '') return () => openai('gpt-4o-mini');
  if ((environment.ANTHROPIC_API_KEY ?? '') !== '') return () => anthropic('claude-sonnet-4-6');
  return undefined;
}

/** The database tool of a question: the orders database, or one that is down. */
function databaseFor(question: Question) {
  if (question.databaseDown !== true) return databaseTool();
  const down = Promise.reject(
    new Error('connection refused: the orders database is not answering'),
  );
  down.catch(() => undefined);
  return databaseTool(down);
}

function show(answer: RuntimeAnswer): string {
  const lines = answer.steps.map((step, index) => {
    const action =
      step.action === undefined
        ? ''
        : `\n     action: ${step.action}${step.action_input === undefined ? '' : ` ${JSON.stringify(step.action_input)}`}`;
    const seen = step.observation === undefined ? '' : `\n     ${cut(step.observation)}`;
    const final = step.final_answer === undefined ? '' : '\n     final answer';
    return `  ${index + 1}. thought: ${step.thought}${action}${seen}${final}`;
  });
  return [
    ...lines,
    `  answer: ${answer.answer}`,
    `  stopped: ${answer.stopped_reason} · ${answer.tool_calls} tool call${answer.tool_calls === 1 ? '' : 's'}${answer.degraded ? ' · degraded' : ''}`,
  ].join('\n');
}

const cut = (text: string) => (text.length > 150 ? `${text.slice(0, 149)}…` : text);

const live = process.argv.includes('--live');
const modelFor = live ? liveModel(process.env) : undefined;
if (live && modelFor === undefined) {
  process.stderr.write(
    'pnpm react-runtime --live needs OPENAI_API_KEY or ANTHROPIC_API_KEY.\n' +
      'Set one, or run `pnpm react-runtime --fake` to use the FakeLLM scripts.\n',
  );
  process.exit(2);
}
const traceFlag = process.argv.indexOf('--trace');
const tracePath =
  traceFlag !== -1 && process.argv[traceFlag + 1] !== undefined
    ? process.argv[traceFlag + 1]!
    : live
      ? 'traces/react-runtime-live.jsonl'
      : 'traces/react-runtime.jsonl';
rmSync(tracePath, { force: true });
const sink = jsonlSink(tracePath);
const io = processIo();
let expected = true;
for (const question of questions) {
  const model = modelFor?.() ?? fakeLLM(question.script);
  const runtime = reactRuntime({ model, tools: [calculator, search, databaseFor(question)] });
  const result = await run(runtime, question.text, { trace: sink, session: 'react-runtime' });
  const answer = runtimeAnswer(result);
  io.stdout(`Q: ${question.text}\n${show(answer)}\n`);
  const wanted = question.databaseDown === true ? 'tool_failure_degraded' : 'completed';
  if (!live && answer.stopped_reason !== wanted) expected = false;
}
await sink.close();
io.stdout(`Trace written to ${tracePath}.\n\n$ agent-trace replay ${tracePath}`);
const replayed = await runCli(['replay', tracePath], io);
io.stdout(`\n$ agent-trace validate ${tracePath}`);
const validated = await runCli(['validate', tracePath], io);
process.exitCode = expected && replayed === 0 && validated === 0 ? 0 : 1;
