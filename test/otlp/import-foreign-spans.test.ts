/**
 * Spans of other tools' instrumentations, as they come: a failed call whose error is only in an
 * OpenTelemetry `exception` event, a model call with no agent span above it, messages of several
 * parts, and a tool's result whose call was in an earlier span. The import keeps what each says.
 */
import type { TraceEvent } from '@agent-trace/core';
import { validateTrace } from '@agent-trace/trace';
import { importSpans, type ForeignSpan } from '@agent-trace/trace/import';
import { describe, expect, it } from 'vitest';

const traceId = 'c0ffee00c0ffee00c0ffee00c0ffee00';
const id = (n: number) => n.toString(16).padStart(16, '0');

/** A model call span outside any agent, as a provider's instrumentation writes one. */
const chat = (n: number, attributes: Record<string, unknown>, more: Partial<ForeignSpan> = {}) =>
  ({
    traceId,
    spanId: id(n),
    parentSpanId: id(1),
    name: 'chat gpt-4o',
    startMs: 1_790_000_000_000 + n * 10,
    endMs: 1_790_000_000_000 + n * 10 + 5,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      ...attributes,
    },
    ...more,
  }) satisfies ForeignSpan;

const request: ForeignSpan = {
  traceId,
  spanId: id(1),
  name: 'POST /ask',
  startMs: 1_790_000_000_000,
  endMs: 1_790_000_000_100,
  attributes: {},
};

const of = <Name extends TraceEvent['event']>(events: readonly TraceEvent[], name: Name) =>
  events.filter((event): event is Extract<TraceEvent, { event: Name }> => event.event === name);

describe("importing another tool's spans", () => {
  it('keeps the instructions, the parts apart, a result named by its earlier call, and a failure read from its exception', () => {
    const first = chat(2, {
      'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
      'gen_ai.input.messages': JSON.stringify([
        {
          role: 'user',
          parts: [
            { type: 'text', content: 'Hi' },
            { type: 'text', content: 'there' },
          ],
        },
      ]),
      'gen_ai.output.messages': JSON.stringify([
        {
          role: 'assistant',
          parts: [
            { type: 'tool_call', id: 'call_1', name: 'weather', arguments: { city: 'Oslo' } },
          ],
          finish_reason: 'tool_call',
        },
      ]),
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 10,
    });
    // The next call sends only what is new: the tool's result, without its call.
    const second = chat(
      3,
      {
        'gen_ai.input.messages': JSON.stringify([
          { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: '8 °C' }] },
        ]),
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 0,
      },
      {
        error: '',
        events: [
          {
            name: 'exception',
            timeMs: 1_790_000_000_034,
            attributes: {
              'exception.type': 'RateLimitError',
              'exception.message': '429 slow down',
            },
          },
        ],
      },
    );
    const { events } = importSpans([{ ...request, error: '' }, first, second]);
    expect(validateTrace(events).problems).toEqual([]);
    expect(of(events, 'agent_start')[0]).toMatchObject({ instructions: 'Be brief.' });
    const [sent, resent] = of(events, 'llm_start');
    expect(sent?.messages).toEqual([{ role: 'user', content: 'Hi\nthere' }]);
    expect(resent?.messages.at(-1)).toMatchObject({
      role: 'tool',
      tool: 'weather',
      content: '8 °C',
    });
    const failed = of(events, 'llm_end')[1];
    expect(failed?.error).toMatchObject({ message: 'RateLimitError: 429 slow down' });
    // The agent made for the calls failed with its last call, and the run counts both calls' cost.
    expect(of(events, 'agent_end')[0]).toMatchObject({ stop_reason: 'error' });
    const cost = of(events, 'llm_end').reduce((sum, each) => sum + (each.cost_usd ?? 0), 0);
    expect(cost).toBeGreaterThan(0);
    expect(of(events, 'run_end')[0]?.cost?.usd).toBeCloseTo(cost, 9);
  });
});
