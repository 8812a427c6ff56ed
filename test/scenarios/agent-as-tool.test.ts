import { agent, run, stream, type Chunk, type TraceEvent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const ofKind = <Name extends TraceEvent['event']>(events: readonly TraceEvent[], name: Name) =>
  events.filter((event): event is Extract<TraceEvent, { event: Name }> => event.event === name);
const ask = (tool: string, input: string) => ({ toolCalls: [{ name: tool, args: { input } }] });

describe('agent as tool', () => {
  it('runs the other agent to completion and hands its answer back to the caller', async () => {
    const researcherModel = fakeLLM([{ text: 'OTel GenAI conventions, 2025.' }]);
    const researcher = agent({ name: 'researcher', model: researcherModel });
    const writerModel = fakeLLM([
      ask('ask_researcher', 'Which spec?'),
      { text: 'Cite the OTel GenAI conventions.' },
    ]);
    const writer = agent({ name: 'writer', model: writerModel, tools: [researcher.asTool()] });
    const sink = memorySink();
    const result = await run(writer, 'Write a citation', { trace: sink });

    expect(result).toMatchObject({
      stopReason: 'completed',
      agent: 'writer',
      output: 'Cite the OTel GenAI conventions.',
    });
    expect(researcherModel.calls[0]!.messages).toEqual([{ role: 'user', content: 'Which spec?' }]);
    expect(writerModel.calls[1]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: 'OTel GenAI conventions, 2025.',
    });
    const toolStart = ofKind(sink.events, 'tool_start')[0]!;
    const handoffStart = ofKind(sink.events, 'handoff_start')[0]!;
    expect(handoffStart).toMatchObject({
      from: 'writer',
      to: 'researcher',
      depth: 1,
      mode: 'return_to_caller',
      parent_span_id: toolStart.span_id,
    });
    const researcherStart = ofKind(sink.events, 'agent_start').find(
      event => event.agent === 'researcher',
    );
    expect(researcherStart?.parent_span_id).toBe(handoffStart.span_id);
    expect(ofKind(sink.events, 'tool_end')[0]).toMatchObject({
      tool: 'ask_researcher',
      result: 'OTel GenAI conventions, 2025.',
    });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('nests: an agent asked as a tool can ask another', async () => {
    const archivist = agent({
      name: 'archivist',
      model: fakeLLM([{ text: 'found in 2021 archive' }]),
    });
    const researcher = agent({
      name: 'researcher',
      model: fakeLLM([ask('ask_archivist', 'dig'), { text: 'archive says 2021' }]),
      tools: [archivist.asTool()],
    });
    const writer = agent({
      name: 'writer',
      model: fakeLLM([ask('ask_researcher', 'when?'), { text: 'It was 2021.' }]),
      tools: [researcher.asTool()],
    });
    const sink = memorySink();
    const result = await run(writer, 'go', { trace: sink });
    expect(result.output).toBe('It was 2021.');
    expect(
      ofKind(sink.events, 'handoff_start').map(event => [
        event.from,
        event.to,
        event.depth,
        event.path,
      ]),
    ).toEqual([
      ['writer', 'researcher', 1, ['writer', 'researcher']],
      ['researcher', 'archivist', 2, ['writer', 'researcher', 'archivist']],
    ]);
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('lets onReturn shape what comes back, and returns structured output as JSON', async () => {
    const scorer = agent({
      name: 'scorer',
      model: fakeLLM([{ text: '{"score":7}' }]),
      output: z.object({ score: z.number() }),
    });
    const writerModel = fakeLLM([ask('score', 'rate it'), { text: 'done' }]);
    const writer = agent({
      name: 'writer',
      model: writerModel,
      tools: [
        scorer.asTool({
          name: 'score',
          onReturn: ({ output, agent: name }) => ({ from: name, ...(output as object) }),
        }),
      ],
    });
    const result = await run(writer, 'go');
    expect(result.toolCalls[0]).toMatchObject({
      toolName: 'score',
      result: { from: 'scorer', score: 7 },
    });
    expect(writerModel.calls[1]!.messages.at(-1)).toMatchObject({
      content: '{"from":"scorer","score":7}',
    });
  });

  it('reports a delegate that fails as a tool error, without retrying it, and pairs every event', async () => {
    const brokenModel = fakeLLM([{ error: { status: 400, message: 'bad request' } }]);
    const broken = agent({ name: 'broken', model: brokenModel });
    const sink = memorySink();
    const result = await run(
      agent({
        name: 'boss',
        model: fakeLLM([ask('ask_broken', 'help'), { text: 'I will do it myself.' }]),
        tools: [broken.asTool()],
      }),
      'go',
      { trace: sink },
    );
    expect(result.stopReason).toBe('completed');
    expect(brokenModel.calls).toHaveLength(1);
    expect(result.toolCalls[0]!.error).toBe(
      "Agent 'broken' did not answer: it stopped with error.",
    );
    expect(ofKind(sink.events, 'handoff_end')[0]).toMatchObject({
      mode: 'return_to_caller',
      error: { type: 'bad_request' },
    });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('streams the delegate’s chunks under its own name, before the caller’s tool_response', async () => {
    const helper = agent({ name: 'helper', model: fakeLLM([{ text: 'helping now' }]) });
    const chunks: Chunk[] = [];
    for await (const chunk of stream(
      agent({
        name: 'boss',
        model: fakeLLM([ask('ask_helper', 'x'), { text: 'ok' }]),
        tools: [helper.asTool()],
      }),
      'go',
    ))
      chunks.push(chunk);
    const kinds = chunks.map(chunk => `${chunk.agent}:${chunk.type}`);
    expect(kinds.indexOf('boss:handoff')).toBeLessThan(kinds.indexOf('helper:delta'));
    expect(kinds.indexOf('helper:delta')).toBeLessThan(kinds.indexOf('boss:tool_response'));
    expect(chunks.map(chunk => chunk.seq)).toEqual(chunks.map((_, index) => index));
  });
});

describe('parallel delegates', () => {
  it('streams each delegate’s chunks in call order, seq still contiguous', async () => {
    const first = agent({ name: 'first', model: fakeLLM([{ text: 'one two three' }]) });
    const second = agent({ name: 'second', model: fakeLLM([{ text: 'four five six' }]) });
    const boss = agent({
      name: 'boss',
      model: fakeLLM([
        {
          toolCalls: [
            { name: 'ask_first', args: { input: 'a' } },
            { name: 'ask_second', args: { input: 'b' } },
          ],
        },
        { text: 'ok' },
      ]),
      tools: [first.asTool(), second.asTool()],
    });
    const chunks: Chunk[] = [];
    for await (const chunk of stream(boss, 'go')) chunks.push(chunk);
    expect(chunks.map(chunk => chunk.seq)).toEqual(chunks.map((_, index) => index));
    const deltas = chunks.filter(chunk => chunk.type === 'delta').map(chunk => chunk.agent);
    expect(deltas).toEqual(['first', 'first', 'first', 'second', 'second', 'second', 'boss']);
  });
});
