import { agent, run, tool, type AnyAgent, type TraceEvent } from '@agent-trace/core';
import { fakeLLM, rerunTrace } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reviewDesk } from '../../examples/document-review/agents.js';
import { draft } from '../../examples/document-review/draft.js';

async function record(entry: AnyAgent, input: string): Promise<TraceEvent[]> {
  const sink = memorySink();
  await run(entry, input, { trace: sink });
  return sink.events;
}

const weather = (unit = 'C') =>
  tool({
    name: 'weather',
    description: 'Weather',
    input: z.object({ city: z.string() }),
    execute: ({ city }) => `${city}: 21°${unit}`,
  });
const time = tool({
  name: 'time',
  description: 'Time',
  input: z.object({ tz: z.string() }),
  execute: ({ tz }) => `12:00 ${tz}`,
});

/** A small desk: a triage agent with two tools, handing off to billing. */
function desk(
  options: {
    instructions?: string;
    tools?: ReturnType<typeof weather>[];
    billingName?: string;
  } = {},
) {
  const billing = agent({
    name: options.billingName ?? 'billing',
    model: fakeLLM([{ text: 'Refund issued.' }], { allowUnusedSteps: true }),
  });
  return agent({
    name: 'triage',
    instructions: options.instructions ?? 'Answer or hand off.',
    model: fakeLLM(
      [
        {
          toolCalls: [
            { name: 'weather', args: { city: 'Paris' } },
            { name: 'time', args: { tz: 'CET' } },
          ],
        },
        { toolCalls: [{ name: `transfer_to_billing` }] },
      ],
      { allowUnusedSteps: true },
    ),
    tools: options.tools ?? [weather(), time],
    handoffs: [billing],
  });
}

const seqOf = (events: readonly TraceEvent[], match: (event: TraceEvent) => boolean) =>
  events.find(match)?.seq;

describe('rerunTrace', () => {
  it('reports no divergence for the demo desk replayed against unchanged code', async () => {
    const recorded = await record(reviewDesk(), `Review this draft: ${draft}`);
    // The desk's own FakeLLMs are never called in a replay: the recording answers.
    const todaysCode = reviewDesk((_agent, script, modelId) =>
      fakeLLM(script, { modelId, allowUnusedSteps: true }),
    );
    const report = await rerunTrace(recorded, todaysCode);
    expect(report.differences).toEqual([]);
    expect(report.same).toBe(true);
    expect(report.result.stopReason).toBe('completed');
    expect(report.rerun).toHaveLength(recorded.length);
  });

  it('answers from the recording, not from the models or tools of the code', async () => {
    const recorded = await record(desk(), 'Refund please');
    const silent = agent({
      name: 'triage',
      instructions: 'Answer or hand off.',
      model: fakeLLM([], { allowUnusedSteps: true }),
      tools: [weather(), time],
      handoffs: [agent({ name: 'billing', model: fakeLLM([]) })],
    });
    const report = await rerunTrace(recorded, silent);
    expect(report.same).toBe(true);
    expect(report.result.output).toBe('Refund issued.');
  });

  it('finds a changed tool argument at the tool call', async () => {
    const recorded = await record(desk(), 'Refund please');
    const edited = recorded.map(event =>
      event.event === 'llm_end' && event.tool_calls?.[0]?.tool === 'weather'
        ? {
            ...event,
            tool_calls: event.tool_calls.map(call =>
              call.tool === 'weather' ? { ...call, arguments: '{"city":"Lyon"}' } : call,
            ),
          }
        : event,
    );
    const report = await rerunTrace(edited, desk());
    expect(report.firstDivergence).toMatchObject({
      kind: 'changed',
      agent: 'triage',
      seq: seqOf(report.rerun, event => event.event === 'tool_start' && event.tool === 'weather'),
      expected: `tool 'weather' is called with {"city":"Paris"}`,
      actual: `tool 'weather' is called with {"city":"Lyon"}`,
    });
  });

  it('finds two tools in another order at the first model request', async () => {
    const recorded = await record(desk(), 'Refund please');
    const report = await rerunTrace(recorded, desk({ tools: [time as never, weather()] }));
    expect(report.firstDivergence?.seq).toBe(
      seqOf(report.rerun, event => event.event === 'llm_start'),
    );
    expect(report.firstDivergence?.expected).toMatch(
      /^model call 1 of 'triage' to fake-model sends request \w+/,
    );
    expect(report.firstDivergence?.actual).not.toBe(report.firstDivergence?.expected);
    expect(report.firstDivergence?.explanation).toEqual([
      {
        part: 'tool_list',
        summary:
          'the tool order: weather, time, transfer_to_billing → time, weather, transfer_to_billing',
      },
    ]);
  });

  it('finds a changed handoff target', async () => {
    const recorded = await record(desk(), 'Refund please');
    const report = await rerunTrace(recorded, desk({ billingName: 'payments' }));
    expect(report.same).toBe(false);
    expect(report.firstDivergence?.seq).toBe(
      seqOf(report.rerun, event => event.event === 'llm_start'),
    );
    expect(
      report.differences.some(
        difference => difference.expected === "'triage' hands off to 'billing' (pass_control)",
      ),
    ).toBe(true);
  });

  it('finds an instruction that changes the request at that model call', async () => {
    const recorded = await record(desk(), 'Refund please');
    const report = await rerunTrace(
      recorded,
      desk({ instructions: 'Answer briefly or hand off.' }),
    );
    expect(report.firstDivergence).toMatchObject({
      kind: 'changed',
      agent: 'triage',
      seq: seqOf(report.rerun, event => event.event === 'llm_start'),
    });
  });

  it('finds a tool that now returns something else, with live tools', async () => {
    const recorded = await record(desk(), 'Refund please');
    const report = await rerunTrace(recorded, desk({ tools: [weather('F'), time as never] }), {
      liveTools: true,
    });
    expect(report.firstDivergence).toMatchObject({
      kind: 'changed',
      seq: seqOf(report.rerun, event => event.event === 'tool_end' && event.tool === 'weather'),
      expected: `tool 'weather' returns "Paris: 21°C"`,
      actual: `tool 'weather' returns "Paris: 21°F"`,
    });
    expect(report.differences.length).toBeGreaterThan(1);
  });

  it('reports an extra model call the recording does not have', async () => {
    const recorded = await record(agent({ name: 'a', model: fakeLLM([{ text: 'done' }]) }), 'go');
    const edited = recorded.map(event =>
      event.event === 'llm_end'
        ? {
            ...event,
            text: '',
            tool_calls: [{ call_id: 'c1', tool: 'ping', arguments: '{}' }],
            finish_reason: 'tool_calls' as const,
          }
        : event,
    );
    const ping = tool({
      name: 'ping',
      description: 'Ping',
      input: z.object({}),
      execute: () => 'pong',
    });
    const report = await rerunTrace(
      edited,
      agent({ name: 'a', model: fakeLLM([]), tools: [ping] }),
    );
    expect(report.same).toBe(false);
    expect(report.result.error?.message).toBe(
      "Replay: agent 'a' made a model call the recording does not have.",
    );
  });
});
