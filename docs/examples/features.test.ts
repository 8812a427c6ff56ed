// docs/guide/features.md: features of your own (examples/features/) through the same public seam
// as the standard features, a per-agent option of a feature, and a run with a standard one left out.
import {
  agent,
  ConfigurationError,
  run,
  steppingClock,
  tool,
  ToolCallError,
  type LanguageModel,
} from '@agent-trace/core';
import {
  addAgentOptionCheck,
  costFeature,
  standardFeatures,
  type Feature,
} from '@agent-trace/core/features';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, rerunTrace, validateTrace } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { dateNote } from '../../examples/features/date-note.js';
import { desk as customerDesk } from '../../examples/features/desk.js';
import { scrubEmails } from '../../examples/features/scrub-emails.js';
import { toolQuota } from '../../examples/features/tool-quota.js';
import { dailyQuota } from '../../examples/features/daily-quota.js';
import { toolAllowList } from '../../examples/features/tool-allow-list.js';

const lookup = tool({
  name: 'lookup_order',
  description: 'Find an order by id',
  input: z.object({ orderId: z.number() }),
  execute: ({ orderId }) => ({ orderId, status: 'delivered' }),
});
let refunds = 0;
const refund = tool({
  name: 'refund',
  description: 'Refund an order',
  input: z.object({ orderId: z.number() }),
  execute: () => ++refunds,
});

/** The desk asks for both tools at once, then answers from what it got. */
const desk = (model?: LanguageModel) => agent(deskOptions(model));

/** The desk's options: its model (scripted unless given), its tools. */
function deskOptions(
  model: LanguageModel = fakeLLM([
    {
      toolCalls: [
        { name: 'lookup_order', args: { orderId: 7 } },
        { name: 'refund', args: { orderId: 7 } },
      ],
    },
    { text: 'Order 7 is delivered; a refund needs a person.' },
  ]),
) {
  return { name: 'desk', model, tools: [lookup, refund] };
}

it('refuses the calls the allow-list does not name, beside the standard features', async () => {
  const trace = memorySink();
  const result = await run(desk(), 'Refund order 7', {
    features: [...standardFeatures, toolAllowList({ desk: ['lookup_order'] })],
    trace,
    clock: steppingClock(),
  });
  expect(refunds).toBe(0);
  expect(result.toolCalls.map(call => [call.toolName, call.error])).toEqual([
    ['lookup_order', undefined],
    ['refund', "'refund' is not on desk's allow-list; answer without it."],
  ]);
  expect(result.guardrails).toEqual([
    {
      guardrail: 'tool-allow-list',
      stage: 'tool',
      verdict: 'block',
      reason: "'refund' is not on desk's allow-list",
    },
  ]);
  expect(trace).toHaveCalledToolTimes('refund', 1);
  expect(validateTrace(trace.events).valid).toBe(true);
});

it('leaves the agents the list does not name alone', async () => {
  refunds = 0;
  const result = await run(desk(), 'Refund order 7', {
    features: [...standardFeatures, toolAllowList({ billing: [] })],
  });
  expect(refunds).toBe(1);
  expect(result.toolCalls.every(call => call.error === undefined)).toBe(true);
});

it('runs without a standard feature that is left out', async () => {
  const prices = {
    'fake:fake-model': {
      inputPerMillion: 1,
      outputPerMillion: 2,
      source: 'test',
      asOf: '2026-11-26',
    },
  };
  const costs = async (features: readonly Feature[]) => {
    const trace = memorySink();
    await run(desk(), 'Refund order 7', { features, prices, trace });
    return trace.events.flatMap(event => (event.event === 'llm_end' ? [event.cost_usd] : []));
  };
  expect((await costs(standardFeatures)).every(cost => typeof cost === 'number')).toBe(true);
  const left = standardFeatures.filter(feature => feature !== costFeature);
  expect(await costs(left)).toEqual([undefined, undefined]);
});

it('reruns a run made with a feature of its own as the same, given the same features', async () => {
  const trace = memorySink();
  const features = [...standardFeatures, toolAllowList({ desk: ['lookup_order'] })];
  await run(desk(), 'Refund order 7', { features, trace });
  // A rerun answers from the recording: the desk's own model is not called.
  const replayed = () => desk(fakeLLM([], { allowUnusedSteps: true }));
  expect((await rerunTrace(trace.events, replayed(), { run: { features } })).same).toBe(true);
  expect((await rerunTrace(trace.events, replayed())).same).toBe(false);
});

declare module '@agent-trace/core' {
  interface AgentFeatureOptions {
    /** The tools the agent may call (the allowed-tools feature); all of them when absent. */
    allowedTools?: readonly string[];
  }
}

addAgentOptionCheck((agentName, options) => {
  const { allowedTools } = options;
  if (allowedTools !== undefined && !Array.isArray(allowedTools))
    throw new ConfigurationError({
      option: 'allowedTools',
      message: `allowedTools of agent '${agentName}' must be a list of tool names.`,
    });
});

/** Each agent's own allow-list, as an option of the agent: `agent({ allowedTools })`. */
const allowedTools: Feature = {
  name: 'allowed-tools',
  version: 2,
  forRun: () => ({
    appliesTo: agent => agent.featureOptions.allowedTools !== undefined,
    toolAttempt: ({ agent, tool }) =>
      agent.featureOptions.allowedTools?.includes(tool.name) === true
        ? undefined
        : {
            refusal: () =>
              new ToolCallError({
                kind: 'guardrail_blocked',
                toolName: tool.name,
                message: `'${tool.name}' is not allowed for ${agent.name}.`,
              }),
          },
  }),
};

it('reads a per-agent option it added to the agent, checked where the agent is defined', async () => {
  refunds = 0;
  const strict = agent({ ...deskOptions(), allowedTools: ['lookup_order'] });
  const result = await run(strict, 'Refund order 7', {
    features: [...standardFeatures, allowedTools],
  });
  expect(refunds).toBe(0);
  expect(result.toolCalls.map(call => call.error)).toEqual([
    undefined,
    "'refund' is not allowed for desk.",
  ]);
  const unused = fakeLLM([], { allowUnusedSteps: true });
  expect(() => agent({ ...deskOptions(unused), allowedTools: 'refund' as never })).toThrow(
    "allowedTools of agent 'desk' must be a list of tool names.",
  );
});

it('gives a run its features, and a rerun the same ones', async () => {
  const trace = memorySink();
  const result = await run(customerDesk(), 'What are customer 7’s open orders?', {
    features: [...standardFeatures, dateNote(), scrubEmails(), toolQuota(2)],
    trace,
  });
  expect(result.stopReason).toBe('completed');
  const features = [...standardFeatures, dateNote(), scrubEmails(), toolQuota(2)];
  const replayed = customerDesk(fakeLLM([], { allowUnusedSteps: true }));
  expect((await rerunTrace(trace.events, replayed, { run: { features } })).same).toBe(true);
});

it('keeps what a run read of state that outlives it, and a rerun reads it back', async () => {
  const trace = memorySink();
  const quota = dailyQuota(4);
  // Two runs share the quota: the second finds three calls of 'orders' used; two of its three go past.
  const first = await run(customerDesk(), 'Customer 7?', {
    features: [...standardFeatures, quota],
    trace,
  });
  const second = await run(customerDesk(), 'Customer 7 again?', {
    features: [...standardFeatures, quota],
    trace,
  });
  expect(first.toolCalls.filter(call => call.error !== undefined)).toHaveLength(0);
  expect(second.toolCalls.filter(call => call.error !== undefined)).toHaveLength(2);
  const kept = trace.events.filter(event => event.event === 'feature' && event.name === 'kept');
  expect(kept[0]).toMatchObject({
    feature: 'daily-quota',
    data: { key: 'tool customer', read: 1, value: 1 },
  });
  // A rerun of the second run alone, with a quota no run has used: it decides as it did.
  const runId = trace.events.filter(event => event.event === 'run_start')[1]!.run;
  const replayed = customerDesk(fakeLLM([], { allowUnusedSteps: true }));
  const rerun = await rerunTrace(trace.events, replayed, {
    runId,
    run: { features: [...standardFeatures, dailyQuota(4)] },
  });
  expect(rerun.same).toBe(true);
});
