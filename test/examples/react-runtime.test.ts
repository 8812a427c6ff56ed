import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { run } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { validateTraceFile } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { questions } from '../../examples/react-runtime/questions.js';
import { reactRuntime, runtimeAnswer } from '../../examples/react-runtime/runtime.js';
import { deterministic } from '../support/deterministic.js';

const exec = promisify(execFile);

describe('the ReAct runtime example', () => {
  it("answers with the runtime's result: answer, steps of thought, action and observation, tool calls, stop", async () => {
    const [loyalty, traceparent] = questions;
    const first = runtimeAnswer(
      await run(reactRuntime({ model: fakeLLM(loyalty!.script) }), loyalty!.text, deterministic()),
    );
    expect(first).toMatchObject({
      answer: expect.stringContaining('Aiko') as string,
      tool_calls: 2,
      stopped_reason: 'completed',
      degraded: false,
      errors: [],
    });
    expect(first.steps[0]).toEqual({
      thought: 'I need the paid totals per customer from the orders database.',
      action: 'database',
      action_input: expect.objectContaining({ params: ['paid'] }) as unknown,
      observation: 'Observation: {"rows":[{"name":"Aiko","spent":120.5}],"truncated":false}',
    });
    expect(first.steps[1]?.observation).toBe(
      'Observation: {"expression":"120.5 * 15 / 100","value":18.075}',
    );
    const second = runtimeAnswer(
      await run(
        reactRuntime({ model: fakeLLM(traceparent!.script) }),
        traceparent!.text,
        deterministic(),
      ),
    );
    expect(second.steps.map(step => step.action)).toEqual([
      '(malformed: invalid_json)',
      'search',
      undefined,
    ]);
  });

  it('hands a refused expression or query back to the model, which corrects itself (no retry, no degraded tool)', async () => {
    const act = (action: string, input: unknown) => ({
      text: `Thought: try.\nAction: ${action}\nAction Input: ${JSON.stringify(input)}`,
    });
    const model = fakeLLM([
      act('calculator', { expression: "__import__('os').system('ls')" }),
      act('database', { sql: 'DROP TABLE orders' }),
      act('database', { sql: 'SELECT nme FROM customers' }),
      act('calculator', { expression: '6 * 7' }),
      { text: 'Thought: done.\nFinal Answer: 42' },
    ]);
    const result = await run(reactRuntime({ model }), 'What is 6 * 7?', deterministic());
    expect(result.stopReason).toBe('completed');
    expect(result.output).toBe('42');
    const observations = runtimeAnswer(result).steps.map(step => step.observation);
    expect(observations[0]).toMatch(
      /^Observation: Tool 'calculator' refused the call: .*Write arithmetic only/,
    );
    expect(observations[1]).toMatch(/refused the call: The query is not a SELECT \('DROP'\)/);
    expect(observations[2]).toMatch(/could not run the query: no such column: nme/);
    // Each ran once: a refusal is not retried.
    expect(result.toolCalls.map(call => [call.attempts, call.error === undefined])).toEqual([
      [1, false],
      [1, false],
      [1, false],
      [1, true],
    ]);
  });

  it('refuses a question that matches a blocked pattern before any model call', async () => {
    const model = fakeLLM([]);
    const result = await run(
      reactRuntime({ model, blockedPatterns: [/drop\s+table/i] }),
      'Please DROP TABLE orders',
      deterministic(),
    );
    expect(result.stopReason).toBe('guardrail_blocked');
    expect(model.calls).toHaveLength(0);
  });

  it('runs with --fake as a process: three answers, the replay, a valid trace', async () => {
    const trace = join(mkdtempSync(join(tmpdir(), 'agent-trace-react-')), 'react.jsonl');
    const { stdout } = await exec(
      process.execPath,
      ['--import', 'tsx', 'examples/react-runtime/main.ts', '--fake', '--trace', trace],
      { env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(stdout).toContain('answer: Aiko has spent the most on paid orders');
    expect(stdout).toContain('action: (malformed: invalid_json)');
    expect(stdout).toContain('stopped: tool_failure_degraded · 1 tool call · degraded');
    expect(stdout).toContain('malformed answer 1 (invalid_json) of llm #1');
    const report = await validateTraceFile(trace);
    expect(report.problems).toEqual([]);
    expect(report.runs.map(entry => entry.stopReason)).toEqual([
      'completed',
      'completed',
      'tool_failure_degraded',
    ]);
  });

  it('says what to set when --live has no key', async () => {
    const failed = await exec(
      process.execPath,
      ['--import', 'tsx', 'examples/react-runtime/main.ts', '--live'],
      {
        env: { PATH: process.env.PATH },
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain(
      'needs OPENAI_API_KEY or ANTHROPIC_API_KEY',
    );
  });
});
