// The public seam: a user's feature sees the run's facts and small values, answers from the
// closed set (stop, refuse, wait, replace), and runs in the order of the run's features.
import {
  ConfigurationError,
  ModelCallError,
  run,
  ToolCallError,
  virtualClock,
} from '@agent-trace/core';
import { standardFeatures, type Feature } from '@agent-trace/core/features';
import { runWorkflow, workflow } from '@agent-trace/core/workflow';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { looping } from './echo-agents.js';

describe('a feature of the run', () => {
  it('stops a turn before a model call, seeing the step and the request', async () => {
    const seen: { step: number; messages: number }[] = [];
    const twoCalls: Feature = {
      name: 'two-calls',
      version: 2,
      forRun: () => ({
        beforeModelCall(at) {
          const { request } = at;
          seen.push({ step: at.step, messages: request.messages.length });
          return at.step < 2
            ? undefined
            : { kind: 'stop', reason: 'budget_exceeded', detail: 'two model calls a run' };
        },
      }),
    };
    const result = await run(looping(5), 'go', { features: [twoCalls] });
    expect(result.stopReason).toBe('budget_exceeded');
    expect(result.detail).toBe('two model calls a run');
    expect(seen).toEqual([
      { step: 0, messages: 1 },
      { step: 1, messages: 3 },
      { step: 2, messages: 5 },
    ]);
  });

  it("waits on the run's clock and writes its event under the agent's span", async () => {
    const clock = virtualClock();
    const trace = memorySink();
    const paced: Feature = {
      name: 'paced',
      version: 2,
      forRun: () => ({
        async modelAttempt(at) {
          const { model } = at;
          at.record('rate_limit_wait', {
            provider: model.provider,
            model: model.modelId,
            waited_ms: 5_000,
            reason: 'requests',
          });
          await at.wait(5_000);
          return undefined;
        },
      }),
    };
    const result = await run(looping(1), 'go', { features: [paced], clock, trace });
    expect(result.stopReason).toBe('completed');
    const starts = trace.events.filter(event => event.event === 'llm_start');
    expect(starts.map(event => Date.parse(event.time) - Date.UTC(2026, 0, 1))).toEqual([
      5_000, 10_000,
    ]);
    const waits = trace.events.filter(event => event.event === 'rate_limit_wait');
    const agentSpan = trace.events.find(event => event.event === 'agent_start')?.span_id;
    expect(waits.map(event => event.parent_span_id)).toEqual([agentSpan, agentSpan]);
    expect(validateTrace(trace.events).valid).toBe(true);
  });

  it('refuses a tool attempt and a model attempt with the errors it gives', async () => {
    const noEcho: Feature = {
      name: 'no-echo',
      version: 2,
      forRun: () => ({
        toolAttempt: ({ tool: refused }) => ({
          refusal: () =>
            new ToolCallError({
              kind: 'guardrail_blocked',
              toolName: refused.name,
              message: `'${refused.name}' is off today`,
            }),
        }),
      }),
    };
    const refusedTool = await run(looping(1), 'go', { features: [noEcho] });
    expect(refusedTool.toolCalls.map(call => call.error)).toEqual(["'echo' is off today"]);
    expect(refusedTool.output).toBe('done');

    const noModel: Feature = {
      name: 'no-model',
      version: 2,
      forRun: () => ({
        modelAttempt: () => ({
          refusal: () =>
            new ModelCallError({
              kind: 'circuit_open',
              isRetryable: false,
              message: 'closed today',
            }),
        }),
      }),
    };
    const refusedModel = await run(looping(1), 'go', { features: [noModel] });
    expect(refusedModel.stopReason).toBe('error');
    expect(refusedModel.error?.message).toContain('closed today');
  });

  it("calls the features' hooks in the order the run gives them", async () => {
    const order: string[] = [];
    const named = (name: string): Feature => ({
      name,
      version: 2,
      forRun: () => ({ afterModelCall: () => void order.push(name) }),
    });
    await run(looping(0), 'go', { features: [named('b'), named('a')] });
    expect(order).toEqual(['b', 'a']);
  });

  it("gives the run's facts: its id, session and agent", async () => {
    const trace = memorySink();
    const facts: string[] = [];
    const watcher: Feature = {
      name: 'watcher',
      version: 2,
      forRun: () => ({
        beforeTurn(at) {
          facts.push(at.runId, at.session, at.agent.name);
          return undefined;
        },
      }),
    };
    await run(looping(0), 'go', { features: [...standardFeatures, watcher], trace, session: 's1' });
    expect(facts).toEqual([trace.events[0]?.run, 's1', 'looper']);
  });

  it('refuses a run given more features than the seam takes', async () => {
    const many = Array.from({ length: 31 }, (_, index): Feature => ({
      name: `f${index}`,
      version: 2,
      forRun: () => ({}),
    }));
    await expect(run(looping(0), 'go', { features: many })).rejects.toThrow(ConfigurationError);
  });

  it("takes part in a workflow's agent steps when the workflow is given it", async () => {
    const seen: string[] = [];
    const watcher: Feature = {
      name: 'watcher',
      version: 2,
      forRun: () => ({
        beforeTurn(at) {
          const { input } = at;
          seen.push(`${at.agent.name}: ${input}`);
          return undefined;
        },
      }),
    };
    const flow = workflow({
      name: 'flow',
      steps: [{ name: 'ask', agent: looping(0), input: 'Say: ${input}' }],
    });
    const result = await runWorkflow(flow, 'hello', { features: [...standardFeatures, watcher] });
    expect(result.status).toBe('completed');
    expect(seen).toEqual(['looper: Say: hello']);
  });
});
