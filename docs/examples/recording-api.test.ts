// docs/guide/recording-api.md: a bridge of a toy framework (docs/examples/recording/) written on
// @agent-trace/core/record, whose runs validate, replay and read like agent-trace's own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BridgedRuns, RecordedAgent, type BridgeRecordingOptions } from '@agent-trace/core/record';
import { runCli } from '@agent-trace/cli';
import { jsonlSink, recordedEvents, validateTraceFile } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { runToy, type ToyAgent, type ToyHooks } from './recording/toy-framework.js';

/** The bridge: each toy run is an agent-trace run, recorded through the toy's hooks. */
function toyRecorder(options: BridgeRecordingOptions) {
  const runs = new BridgedRuns(options);
  return {
    hooks(agent: ToyAgent, input: string): ToyHooks {
      const tracer = runs.open(agent.name);
      const runSpan = tracer.start('run_start', agent.name, null, { input });
      const recorded = new RecordedAgent(tracer, agent.name, null, {
        prices: runs.prices,
        runSpan,
      });
      const model = { provider: 'toy', model: 'toy-1' };
      const tools = Object.keys(agent.tools).map(name => ({
        name,
        description: name,
        inputSchema: { type: 'object' },
      }));
      return {
        onModelStart: messages =>
          recorded.modelCallStarted({
            ...model,
            instructions: agent.instructions,
            tools,
            messages,
          }),
        onModelEnd: answer =>
          recorded.modelCallEnded({
            ...model,
            text: answer.text,
            toolCalls: answer.calls.map(call => ({
              callId: call.id,
              toolName: call.tool,
              argumentsText: JSON.stringify(call.args),
            })),
            finishReason: answer.calls.length > 0 ? 'tool_calls' : 'stop',
            usage: { promptTokens: answer.tokens.input, completionTokens: answer.tokens.output },
          }),
        onToolStart: (id, tool, args) => void recorded.toolStarted(id, tool, args),
        onToolEnd: (id, output) => recorded.toolEnded(id, { output }),
        onEnd: output => {
          recorded.ended({ stopReason: 'completed', output }); // ends the agent, seals the run
          runs.closed(tracer);
        },
      };
    },
    flush: () => runs.flush(),
  };
}

it('records a toy framework run as a valid agent-trace run', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-toy-')), 'toy.jsonl');
  const weather: ToyAgent = {
    name: 'weather',
    instructions: 'Answer with the forecast.',
    tools: { forecast: () => ({ city: 'Oslo', celsius: -3 }) },
    answers: [
      {
        text: '',
        calls: [{ id: 'c1', tool: 'forecast', args: { city: 'Oslo' } }],
        tokens: { input: 20, output: 8 },
      },
      { text: 'Oslo is cold: -3 °C.', calls: [], tokens: { input: 40, output: 9 } },
    ],
  };

  const recorder = toyRecorder({ trace: jsonlSink(file) });
  runToy(weather, 'Is Oslo cold?', recorder.hooks(weather, 'Is Oslo cold?'));
  await recorder.flush();

  const report = await validateTraceFile(file);
  expect(report.problems).toEqual([]);
  expect(report.runs[0]?.stopReason).toBe('completed');
  const events = await recordedEvents(file);
  expect(events.map(event => event.event)).toEqual([
    'run_start',
    'agent_start',
    'llm_start',
    'llm_end',
    'tool_start',
    'tool_end',
    'llm_start',
    'llm_end',
    'agent_end',
    'run_end',
  ]);
  const lines: string[] = [];
  const code = await runCli(['replay', file], {
    stdout: text => void lines.push(text),
    stderr: text => void lines.push(text),
    env: { NO_COLOR: '1' },
    isTTY: false,
  });
  expect(code).toBe(0);
  expect(lines.join('\n')).toContain('tool forecast {"city":"Oslo"}');
});
