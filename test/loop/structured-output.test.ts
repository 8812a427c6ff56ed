import { agent, run, stream, tool, type TraceEvent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const Verdict = z.object({ verdict: z.enum(['approve', 'reject']), reasons: z.array(z.string()) });
const lookup = tool({
  name: 'lookup',
  description: 'Look up',
  input: z.object({}),
  execute: () => 'policy: no refunds after 30 days',
});

const llmStarts = (events: readonly TraceEvent[]) =>
  events.filter(
    (event): event is Extract<TraceEvent, { event: 'llm_start' }> => event.event === 'llm_start',
  );

describe('structured output', () => {
  it('uses tools without the schema, then asks for the answer with tools off and decodes it', async () => {
    const model = fakeLLM([
      { toolCalls: [{ name: 'lookup' }] },
      { text: 'I have what I need.' },
      { text: '```json\n{"verdict":"reject","reasons":["past 30 days"]}\n```' },
    ]);
    const sink = memorySink();
    const result = await run(
      agent({ name: 'judge', model, tools: [lookup], output: Verdict }),
      'refund?',
      {
        trace: sink,
      },
    );

    expect(result.stopReason).toBe('completed');
    expect(result.output).toEqual({ verdict: 'reject', reasons: ['past 30 days'] });
    expectTypeOf(result.output).toEqualTypeOf<z.infer<typeof Verdict> | undefined>();
    expect(model.calls.map(call => [call.toolNames, call.responseFormat?.name])).toEqual([
      [['lookup'], undefined],
      [['lookup'], undefined],
      [[], 'judge_output'],
    ]);
    const ask = model.calls[2]!.messages.at(-1);
    expect(ask).toMatchObject({ role: 'user' });
    expect(ask?.role === 'user' && ask.content).toMatch(
      /^Now give your final answer as a JSON object that matches this JSON Schema, with no other text:\n\{/,
    );
    expect(llmStarts(sink.events).map(event => event.phase)).toEqual([
      undefined,
      undefined,
      'final_output',
    ]);
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('sends the schema from the first call when the agent has no tools', async () => {
    const model = fakeLLM([{ text: '{"verdict":"approve","reasons":[]}' }]);
    const result = await run(agent({ name: 'judge', model, output: Verdict }), 'ok?');
    expect(result.output).toEqual({ verdict: 'approve', reasons: [] });
    expect(model.calls[0]!.responseFormat?.schema).toMatchObject({
      type: 'object',
      required: ['verdict', 'reasons'],
    });
  });

  it('tells the LLM what was wrong and decodes the corrected answer', async () => {
    const model = fakeLLM([
      { text: '{"verdict":"maybe","reasons":[]}' },
      { text: '{"verdict":"approve","reasons":["fine"]}' },
    ]);
    const result = await run(agent({ name: 'judge', model, output: Verdict }), 'ok?');
    expect(result.output).toEqual({ verdict: 'approve', reasons: ['fine'] });
    const retry = model.calls[1]!.messages.at(-1);
    expect(retry?.role === 'user' && retry.content).toBe(
      'Your answer could not be used: the JSON does not match the schema: verdict: Invalid option: expected one of "approve"|"reject". Reply again with only a JSON object that matches the JSON Schema.',
    );
  });

  it('stops with output_decoding_failed after maxDecodeRetries', async () => {
    const model = fakeLLM([{ text: 'approve' }, { text: 'I approve' }, { text: '{"verdict":1}' }]);
    const sink = memorySink();
    const result = await run(agent({ name: 'judge', model, output: Verdict }), 'ok?', {
      trace: sink,
    });
    expect(result.stopReason).toBe('output_decoding_failed');
    expect(result.output).toBeUndefined();
    expect(result.text).toBe('{"verdict":1}');
    expect(result.limit).toEqual({ name: 'maxDecodeRetries', value: 2 });
    expect(result.detail).toMatch(
      /^the final answer did not decode after 3 tries: the JSON does not match the schema: verdict: /,
    );
    expect(sink.events.at(-1)).toMatchObject({ stop_reason: 'output_decoding_failed' });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('works the same when streaming', async () => {
    const model = fakeLLM([
      { toolCalls: [{ name: 'lookup' }] },
      { text: 'done' },
      { text: '{"verdict":"approve","reasons":["ok"]}' },
    ]);
    const running = stream(agent({ name: 'judge', model, tools: [lookup], output: Verdict }), 'go');
    for await (const chunk of running) void chunk;
    expect((await running.result).output).toEqual({ verdict: 'approve', reasons: ['ok'] });
  });

  it('keeps plain agents typed as text', async () => {
    const result = await run(agent({ name: 'plain', model: fakeLLM([{ text: 'hi' }]) }), 'go');
    expectTypeOf(result.output).toEqualTypeOf<string>();
    expect(result.output).toBe('hi');
  });

  it("returns the finishing agent's decoded answer when it was reached through a handoff", async () => {
    const judge = agent({
      name: 'judge',
      model: fakeLLM([{ text: '{"verdict":"approve","reasons":["in time"]}' }]),
      output: Verdict,
    });
    const desk = agent({
      name: 'desk',
      model: fakeLLM([{ toolCalls: [{ name: 'transfer_to_judge' }] }]),
      handoffs: [judge],
    });
    const result = await run(desk, 'refund?');
    expect(result).toMatchObject({ stopReason: 'completed', agent: 'judge' });
    expect(result.output).toEqual({ verdict: 'approve', reasons: ['in time'] });
    expect(result.text).toBe('{"verdict":"approve","reasons":["in time"]}');
  });

  it('returns text when an agent with a schema hands off to one that answers in text', async () => {
    const clerk = agent({ name: 'clerk', model: fakeLLM([{ text: 'Refunded.' }]) });
    const judge = agent({
      name: 'judge',
      model: fakeLLM([{ toolCalls: [{ name: 'transfer_to_clerk' }] }]),
      output: Verdict,
      handoffs: [clerk],
    });
    const result = await run(judge, 'refund?');
    expect(result.output as unknown).toBe('Refunded.');
  });
});
