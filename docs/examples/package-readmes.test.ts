// The README of each package (packages/*/README.md): its example, run here.
import { writeFileSync } from 'node:fs';
import { agentTraceTelemetry, aiSdkModel } from '@agent-trace/ai-sdk';
import { processIo, runCli } from '@agent-trace/cli';
import { agent, run, tool } from '@agent-trace/core';
import { defineEval, exactMatch, noErrors, runEval } from '@agent-trace/evals';
import { agentTraceCallbacks, langchainModel } from '@agent-trace/langgraph';
import { openaiAgentsModel, withAgentTrace } from '@agent-trace/openai-agents';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink, rerunTrace, validateTraceFile } from '@agent-trace/trace';
import { traceView, viewerHtml } from '@agent-trace/viewer';
import { tool as langchainTool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { Agent, run as runAgent, tool as agentsTool } from '@openai/agents';
import { generateText, isStepCount, tool as aiTool } from 'ai';
import { expect, it } from 'vitest';
import { z } from 'zod';

const sum = () =>
  fakeLLM([{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }]);
const oslo = () =>
  fakeLLM([{ toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }, { text: 'Oslo: -3 °C.' }]);

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

it('@agent-trace/core and @agent-trace/trace: a run, traced, validated and rerun', async () => {
  const model = sum(); // in an application: openai('gpt-4o-mini'), or 'openai:gpt-4o-mini'

  const calculator = agent({
    name: 'calculator',
    instructions: 'Use the add tool.',
    model,
    tools: [add],
  });
  const result = await run(calculator, 'What is 2 + 3?', {
    trace: jsonlSink('traces/calculator.jsonl'),
  });
  result.output; // 'The sum is 5.'

  const report = await validateTraceFile('traces/calculator.jsonl');
  report.problems; // []: starts and ends pair, seq has no gap, the seal counts right
  const rerun = await rerunTrace('traces/calculator.jsonl', calculator);
  rerun.same; // true: today's code behaves as recorded, with no model call

  expect(result.output).toBe('The sum is 5.');
  expect(report.problems).toEqual([]);
  expect(rerun.same).toBe(true);
});

it('@agent-trace/testing: a scripted model and the matchers', async () => {
  const model = fakeLLM([
    { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
    { text: 'The sum is 5.' },
  ]);
  const result = await run(agent({ name: 'calculator', model, tools: [add] }), 'What is 2 + 3?');

  expect(result).toHaveCalledTool('add', { a: 2, b: 3 });
  expect(result).toHaveStopReason('completed');
});

it('@agent-trace/evals: an eval of cases and scorers', async () => {
  const sums = defineEval<{ a: number; b: number }>({
    name: 'sums',
    data: [{ id: '2+3', input: { a: 2, b: 3 }, expected: { output: 'The sum is 5.' } }],
    task: ({ a, b }, { runOptions }) =>
      run(agent({ name: 'calculator', model: sum(), tools: [add] }), `${a} + ${b}?`, runOptions),
    scorers: [exactMatch(), noErrors()],
  });
  const results = await runEval(sums);
  results.means; // { exact: 1, errors: 1 }

  expect(results.means).toEqual({ exact: 1, errors: 1 });
});

it('@agent-trace/viewer and @agent-trace/cli: a page and the command', async () => {
  await run(agent({ name: 'calculator', model: sum(), tools: [add] }), 'What is 2 + 3?', {
    trace: jsonlSink('traces/calculator-view.jsonl'),
  });

  const html = viewerHtml(await traceView(['traces/calculator-view.jsonl']));
  writeFileSync('traces/calculator-view.html', html); // one self-contained page
  const code = await runCli(['validate', 'traces/calculator-view.jsonl'], processIo());

  expect(html).toContain('<!doctype html>');
  expect(code).toBe(0);
});

it('@agent-trace/ai-sdk: an AI SDK agent recorded', async () => {
  const weather = aiTool({
    description: 'The weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: ({ city }) => Promise.resolve({ city, celsius: -3 }),
  });
  const model = aiSdkModel(oslo()); // in an application: the provider's model, e.g. openai('gpt-4o')

  const telemetry = agentTraceTelemetry({ trace: jsonlSink('traces/forecast-ai-sdk.jsonl') });
  const { text } = await generateText({
    model,
    tools: { weather },
    stopWhen: isStepCount(5),
    prompt: 'How cold is Oslo?',
    telemetry: { functionId: 'forecaster', integrations: [telemetry] },
  });
  await telemetry.flush();

  expect(text).toBe('Oslo: -3 °C.');
  expect((await validateTraceFile('traces/forecast-ai-sdk.jsonl')).problems).toEqual([]);
});

it('@agent-trace/openai-agents: an Agents SDK agent recorded', async () => {
  const weather = agentsTool({
    name: 'weather',
    description: 'The weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => ({ city, celsius: -3 }),
  });
  const model = openaiAgentsModel(oslo()); // in an application: the SDK's default model
  const trace = memorySink();

  const forecaster = new Agent({ name: 'forecaster', tools: [weather], model });
  const result = await withAgentTrace({ trace }, () => runAgent(forecaster, 'How cold is Oslo?'));

  expect(result.finalOutput).toBe('Oslo: -3 °C.');
  expect(trace.events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'completed' });
});

it('@agent-trace/langgraph: a LangGraph agent recorded', async () => {
  const weather = langchainTool(({ city }: { city: string }) => ({ city, celsius: -3 }), {
    name: 'weather',
    description: 'The weather in a city',
    schema: z.object({ city: z.string() }),
  });
  const llm = langchainModel(oslo()); // in an application: new ChatOpenAI({ model: 'gpt-4o' })
  const trace = memorySink();

  const forecaster = createReactAgent({ llm, tools: [weather], name: 'forecaster' });
  const callbacks = agentTraceCallbacks({ trace });
  await forecaster.invoke(
    { messages: [{ role: 'user', content: 'How cold is Oslo?' }] },
    { callbacks: [callbacks] },
  );
  await callbacks.flush();

  expect(trace.events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'completed' });
});
