/**
 * How a workflow runs: inputs from earlier steps, conditions, failures and what they skip,
 * retries, timeouts, concurrency, agent steps, aborts, and mistakes refused at definition.
 */
import {
  agent,
  ConfigurationError,
  sequentialIds,
  steppingClock,
  tool,
  virtualClock,
} from '@agent-trace/core';
import { runWorkflow, workflow, type WorkflowRunOptions } from '@agent-trace/core/workflow';
import { fakeLLM, fakeTool } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const echo = (name: string) =>
  fakeTool(name, { input: z.unknown(), respond: value => ({ from: name, value }) });

async function traced(
  flow: ReturnType<typeof workflow>,
  input: unknown,
  options: WorkflowRunOptions = {},
) {
  const sink = memorySink();
  const result = await runWorkflow(flow, input, {
    trace: sink,
    clock: steppingClock(),
    ids: sequentialIds(),
    ...options,
  });
  expect(validateTrace(sink.events).problems).toEqual([]);
  return { result, events: sink.events };
}

describe('runWorkflow', () => {
  it("fills inputs from earlier outputs and the workflow's input, and joins several dependencies by name", async () => {
    const flow = workflow({
      name: 'inputs',
      steps: [
        { name: 'a', tool: echo('ta') },
        { name: 'b', tool: echo('tb'), input: { topic: '${input.topic}', n: 2 } },
        {
          name: 'c',
          tool: echo('tc'),
          dependsOn: ['a', 'b'],
          input: { whole: '${steps.b.output}', text: 'topic ${steps.b.output.value.topic}!' },
        },
        { name: 'd', tool: echo('td'), dependsOn: ['a', 'b'] },
      ],
    });
    const { result } = await traced(flow, { topic: 'tides' });
    const outputs = Object.fromEntries(result.steps.map(step => [step.name, step.output]));
    expect(outputs.a).toEqual({ from: 'ta', value: { topic: 'tides' } });
    expect(outputs.c).toEqual({
      from: 'tc',
      value: { whole: { from: 'tb', value: { topic: 'tides', n: 2 } }, text: 'topic tides!' },
    });
    expect(outputs.d).toEqual({ from: 'td', value: { a: outputs.a, b: outputs.b } });
    // Two steps end the workflow: its output holds both, by name.
    expect(result.output).toEqual({ c: outputs.c, d: outputs.d });
  });

  it('skips a step whose condition does not hold, and the steps after it; `always` runs after a failure', async () => {
    const flow = workflow({
      name: 'conditions',
      steps: [
        {
          name: 'check',
          tool: fakeTool('check', { input: z.unknown(), respond: () => ({ rows: 0 }) }),
        },
        {
          name: 'analyse',
          tool: echo('analyse'),
          dependsOn: ['check'],
          condition: 'steps.check.output.rows > 0',
        },
        { name: 'report', tool: echo('report'), dependsOn: ['analyse'] },
        {
          name: 'fetch',
          tool: fakeTool('fetch', { input: z.unknown(), steps: [{ error: 'offline' }] }),
        },
        { name: 'use', tool: echo('use'), dependsOn: ['fetch'] },
        {
          name: 'alert',
          tool: echo('alert'),
          dependsOn: ['fetch'],
          condition: 'steps.fetch.status == "failed"',
          input: '${steps.fetch.error.message}',
        },
      ],
    });
    const { result, events } = await traced(flow, null);
    expect(result.steps.map(step => [step.name, step.status, step.reason])).toEqual([
      ['check', 'completed', undefined],
      ['analyse', 'skipped', 'its condition does not hold: steps.check.output.rows > 0'],
      ['report', 'skipped', "dependency 'analyse' was skipped"],
      ['fetch', 'failed', undefined],
      ['use', 'skipped', "dependency 'fetch' failed"],
      ['alert', 'completed', undefined],
    ]);
    expect(result.steps.find(step => step.name === 'alert')?.output).toEqual({
      from: 'alert',
      value: "Tool 'fetch' failed: offline",
    });
    expect(result.stopReason).toBe('workflow_step_failed');
    expect(result.detail).toBe("step 'fetch' failed: Tool 'fetch' failed: offline");
    const end = events.at(-1);
    expect(end?.event === 'run_end' && [end.stop_reason, end.detail]).toEqual([
      'workflow_step_failed',
      "step 'fetch' failed: Tool 'fetch' failed: offline",
    ]);
  });

  it('retries a failing step, each attempt its own tool span', async () => {
    const flaky = fakeTool('flaky', {
      steps: [{ error: 'busy' }, { error: 'busy' }],
      respond: () => 'ok',
    });
    const { result, events } = await traced(
      workflow({ name: 'retry', steps: [{ name: 'once', tool: flaky, retries: 2 }] }),
      {},
    );
    expect(result.steps[0]).toMatchObject({ status: 'completed', output: 'ok', attempts: 3 });
    const attempts = events.flatMap(event => (event.event === 'tool_end' ? [event.attempt] : []));
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('fails an attempt that outlives timeoutMs, and retries it', async () => {
    let calls = 0;
    const hangs = tool({
      name: 'hangs',
      description: 'Never answers the first time',
      input: z.unknown(),
      execute: (_, { abortSignal }) =>
        ++calls === 1
          ? new Promise((_resolve, reject) =>
              abortSignal.addEventListener('abort', () => reject(new Error('stopped'))),
            )
          : 'second time',
    });
    const slow = workflow({ name: 'slow', steps: [{ name: 'wait', tool: hangs, timeoutMs: 20 }] });
    const failed = await traced(slow, {});
    expect(failed.result.steps[0]).toMatchObject({
      status: 'failed',
      error: { type: 'timeout', message: "step 'wait' timed out after 20 ms" },
    });
    calls = 0;
    const retried = await traced(
      workflow({ name: 'slow', steps: [{ name: 'wait', tool: hangs, timeoutMs: 20, retries: 1 }] }),
      {},
    );
    expect(retried.result.steps[0]).toMatchObject({
      status: 'completed',
      output: 'second time',
      attempts: 2,
    });
  });

  it('runs independent branches at the same time, and keeps to maxConcurrency', async () => {
    let running = 0;
    let most = 0;
    const slow = (name: string) =>
      fakeTool(name, {
        input: z.unknown(),
        respond: async (_, { clock, abortSignal }) => {
          most = Math.max(most, ++running);
          await clock.sleep?.(100, abortSignal);
          running--;
          return name;
        },
      });
    const flow = workflow({
      name: 'branches',
      steps: [
        { name: 'left', tool: slow('left') },
        { name: 'right', tool: slow('right') },
        { name: 'items', tool: slow('item'), forEach: 'input.items' },
        { name: 'join', tool: echo('join'), dependsOn: ['left', 'right', 'items'] },
      ],
    });
    const wide = await traced(flow, { items: [1, 2, 3] }, { clock: virtualClock() });
    expect(most).toBe(5);
    const end = wide.events.find(event => event.event === 'workflow_end');
    expect(end?.event === 'workflow_end' && end.duration_ms).toBe(100);
    most = 0;
    const narrow = await traced(
      flow,
      { items: [1, 2, 3] },
      { clock: virtualClock(), maxConcurrency: 2 },
    );
    expect(most).toBe(2);
    const narrowEnd = narrow.events.find(event => event.event === 'workflow_end');
    expect(narrowEnd?.event === 'workflow_end' && narrowEnd.duration_ms).toBe(300);
    // The trace is the same whichever step finished first: written in the workflow's order.
    const steps = wide.events.flatMap(event =>
      event.event === 'workflow_step_start' ? [event.name] : [],
    );
    expect(steps).toEqual(['left', 'right', 'items', 'join']);
  });

  it('fails a for_each step whose list is not a list, saying how to fix it', async () => {
    const { result } = await traced(
      workflow({ name: 'p', steps: [{ name: 'each', tool: echo('each'), forEach: 'input' }] }),
      { not: 'a list' },
    );
    expect(result.steps[0]?.error).toEqual({
      type: 'invalid_input',
      message:
        "step 'each' runs for each item of input, which must be a list (it is object). Name a list there, e.g. steps.<name>.output.rows.",
    });
  });

  it('runs a step with parallel: false alone, after the steps running and before the next', async () => {
    const spans: Record<string, [number, number]> = {};
    const timed = (name: string) =>
      fakeTool(name, {
        input: z.unknown(),
        respond: async (_, { clock, abortSignal }) => {
          const start = clock.now();
          await clock.sleep?.(100, abortSignal);
          spans[name] = [start, clock.now()];
          return name;
        },
      });
    const flow = workflow({
      name: 'turns',
      steps: [
        { name: 'left', tool: timed('left') },
        { name: 'right', tool: timed('right') },
        { name: 'alone', tool: timed('alone'), parallel: false },
        { name: 'after', tool: timed('after') },
      ],
    });
    const { result, events } = await traced(flow, null, { clock: virtualClock() });
    expect(result.status).toBe('completed');
    const at = (name: string) => (spans[name] as [number, number]).map(ms => ms - spans.left![0]);
    // left and right side by side; alone once both ended; after waits its turn behind alone.
    expect(['left', 'right', 'alone', 'after'].map(at)).toEqual([
      [0, 100],
      [0, 100],
      [100, 200],
      [200, 300],
    ]);
    const start = events.find(event => event.event === 'workflow_start');
    expect(start?.event === 'workflow_start' && start.steps.map(step => step.parallel)).toEqual([
      undefined,
      undefined,
      false,
      undefined,
    ]);
    expect(validateTrace(events).problems).toEqual([]);
  });

  it('runs an agent step inside its step span, given its input as text', async () => {
    const model = fakeLLM([{ text: 'A short summary.' }]);
    const writer = agent({ name: 'writer', model, instructions: 'Summarise.' });
    const flow = workflow({
      name: 'with-agent',
      steps: [
        {
          name: 'facts',
          tool: fakeTool('facts', { input: z.unknown(), respond: () => ({ facts: ['a', 'b'] }) }),
        },
        { name: 'summary', agent: writer, dependsOn: ['facts'] },
      ],
    });
    const { result, events } = await traced(flow, null);
    expect(result.output).toBe('A short summary.');
    expect(model.calls[0]?.messages.at(-1)?.content).toBe(
      JSON.stringify({ facts: ['a', 'b'] }, null, 2),
    );
    const step = events.find(
      event => event.event === 'workflow_step_start' && event.name === 'summary',
    );
    const agentStart = events.find(event => event.event === 'agent_start');
    expect(agentStart?.parent_span_id).toBe(step?.span_id);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
  });

  it('fails an agent step whose agent does not complete', async () => {
    const looping = agent({
      name: 'looping',
      model: fakeLLM([{ toolCalls: [{ name: 'echo', args: {} }] }]),
      tools: [echo('echo')],
      limits: { maxSteps: 1 },
    });
    const { result } = await traced(
      workflow({ name: 'w', steps: [{ name: 'think', agent: looping }] }),
      'go',
    );
    expect(result.steps[0]?.error?.type).toBe('max_steps');
    expect(result.stopReason).toBe('workflow_step_failed');
  });

  it('stops on abort with a sealed trace: started steps end, later ones never start', async () => {
    const controller = new AbortController();
    const stops = fakeTool('stops', {
      respond: () => {
        controller.abort('enough');
        return 'done';
      },
    });
    const { result, events } = await traced(
      workflow({
        name: 'aborted',
        steps: [
          { name: 'first', tool: stops },
          { name: 'second', tool: echo('second'), dependsOn: ['first'] },
        ],
      }),
      {},
      { signal: controller.signal },
    );
    expect(result.stopReason).toBe('aborted');
    expect(result.status).toBe('aborted');
    expect(events.filter(event => event.event === 'workflow_step_start')).toHaveLength(1);
    expect(events.at(-1)?.event).toBe('run_end');
  });

  it("stops with timeout when the run's timeoutMs passes, its trace sealed", async () => {
    const hangs = tool({
      name: 'hangs',
      description: 'Never answers',
      input: z.unknown(),
      execute: (_, { abortSignal }) =>
        new Promise((_resolve, reject) =>
          abortSignal.addEventListener('abort', () => reject(new Error('stopped'))),
        ),
    });
    const { result, events } = await traced(
      workflow({ name: 'late', steps: [{ name: 'wait', tool: hangs }] }),
      {},
      { timeoutMs: 20 },
    );
    expect(result.stopReason).toBe('timeout');
    const end = events.at(-1);
    expect(end?.event === 'run_end' && end.stop_reason).toBe('timeout');
  });

  it.each([
    [
      'a cycle',
      [
        { name: 'a', dependsOn: ['b'] },
        { name: 'b', dependsOn: ['a'] },
      ],
      "Workflow 'w', step 'a' (depends_on): the steps depend on each other in a cycle: a → b → a. Remove one of these dependencies.",
    ],
    [
      'a missing dependency',
      [{ name: 'a', dependsOn: ['z'] }],
      "Workflow 'w', step 'a' (depends_on): step 'a' depends on 'z', which is not a step of this workflow: the steps are a",
    ],
    [
      'a duplicate name',
      [{ name: 'a' }, { name: 'a' }],
      "Workflow 'w', step 'a' (name): a second step named 'a': step names must be unique",
    ],
    [
      'a bad condition',
      [{ name: 'a', condition: 'steps.a.output ==' }],
      "Workflow 'w', step 'a': bad condition at column 18: expected a value",
    ],
  ])('refuses %s when the workflow is defined', (_, steps, message) => {
    const define = () =>
      workflow({ name: 'w', steps: steps.map(step => ({ ...step, tool: echo('t') })) });
    expect(define).toThrow(ConfigurationError);
    expect(define).toThrow(message);
  });
});
