/**
 * What a model thought is part of its answer and not of its text: kept on `llm_end` and on the
 * assistant message that goes back (streamed or not), redacted like the rest, shown by `replay`,
 * exported as the GenAI conventions' `reasoning` parts and read back by the import, replayed by
 * a rerun, and never compared as the answer.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, stream, tool, type TraceEvent } from '@agent-trace/core';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import {
  compareTraces,
  jsonlSink,
  memorySink,
  rerunTrace,
  validateTrace,
} from '@agent-trace/trace';
import { importSpans, spansFromOtlpJson } from '@agent-trace/trace/import';
import { otlpSink } from '@agent-trace/trace/otlp';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cli } from '../support/cli.js';

const lookup = tool({
  name: 'lookup',
  description: 'Looks an order up',
  input: z.object({ order: z.string() }),
  execute: ({ order }) => ({ order, refundable: true }),
});

const thinking = 'The order is A-1; I should look it up before refunding.';
const script = (reasoning: string): FakeLLMStep[] => [
  {
    reasoning: [{ text: reasoning, provider: 'anthropic', opaque: 'c2lnbmVk' }],
    toolCalls: [{ name: 'lookup', args: { order: 'A-1' } }],
  },
  { reasoning: 'It is refundable.', text: 'Refunded A-1.' },
];
const desk = (reasoning = thinking) =>
  agent({
    name: 'desk',
    instructions: 'Refund what is refundable.',
    model: fakeLLM(script(reasoning)),
    tools: [lookup],
  });

/** The desk as a rerun gets it: its model's answers come from the recording. */
const rerunDesk = () =>
  agent({
    name: 'desk',
    instructions: 'Refund what is refundable.',
    model: fakeLLM([]),
    tools: [lookup],
  });

const ends = (events: readonly TraceEvent[]) =>
  events.flatMap(event => (event.event === 'llm_end' ? [event] : []));
const starts = (events: readonly TraceEvent[]) =>
  events.flatMap(event => (event.event === 'llm_start' ? [event] : []));

describe('reasoning in the trace', () => {
  for (const streamed of [false, true])
    it(`is kept apart from the text and goes back with the turn (${streamed ? 'streamed' : 'generated'})`, async () => {
      const trace = memorySink();
      const result = streamed
        ? await (async () => {
            const running = stream(desk(), 'Refund A-1', { trace });
            for await (const chunk of running)
              expect(JSON.stringify(chunk)).not.toContain('look it up');
            return running.result;
          })()
        : await run(desk(), 'Refund A-1', { trace });
      expect(result.output).toBe('Refunded A-1.');
      const [first, second] = ends(trace.events);
      expect(first).toMatchObject({
        text: '',
        reasoning: [{ text: thinking, provider: 'anthropic', opaque: 'c2lnbmVk' }],
      });
      expect(second).toMatchObject({
        text: 'Refunded A-1.',
        reasoning: [{ text: 'It is refundable.' }],
      });
      // The second request carries the first answer back with what it thought.
      const assistant = starts(trace.events)[1]?.messages.find(
        message => message.role === 'assistant',
      );
      expect(assistant).toMatchObject({ reasoning: [{ text: thinking, opaque: 'c2lnbmVk' }] });
      expect(validateTrace(trace.events).problems).toEqual([]);
      expect((await rerunTrace(trace.events, rerunDesk())).differences).toEqual([]);
    });

  it('is redacted as the rest of what a run writes', async () => {
    const trace = memorySink();
    await run(desk('The key AKIAIOSFODNN7EXAMPLE opens it.'), 'Refund A-1', { trace });
    expect(JSON.stringify(trace.events)).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(ends(trace.events)[0]?.reasoning?.[0]?.text).toMatch(/^The key \S+ opens it\.$/);
  });

  it('is never compared as the answer: another thought to the same answer is the same run', async () => {
    const one = memorySink();
    const other = memorySink();
    await run(desk(), 'Refund A-1', { trace: one });
    await run(desk('Something else entirely.'), 'Refund A-1', { trace: other });
    expect(compareTraces(one.events, other.events)).toEqual([]);
  });

  it('`replay` shows it beside the answer', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-reasoning-')), 'trace.jsonl');
    const sink = jsonlSink(path);
    await run(desk(), 'Refund A-1', { trace: sink });
    await sink.close();
    const { code, stdout } = await cli(['replay', path]);
    expect(code).toBe(0);
    const llm = stdout.split('\n').filter(line => line.includes('─ llm #'));
    expect(llm[0]).toContain('reasoning "The order is A-1; I should look it up before refunding."');
    expect(llm[1]).toMatch(/reasoning "It is refundable\."\s+→ "Refunded A-1\."/);
  });

  it('is exported as GenAI reasoning parts, with captured content only, and imported back', async () => {
    for (const captureContent of [true, false]) {
      const exporter = new InMemorySpanExporter();
      const sink = otlpSink({ exporter, captureContent });
      await run(desk(), 'Refund A-1', { trace: sink });
      await sink.forceFlush();
      const spans = exporter.getFinishedSpans();
      const output = spans
        .filter(span => span.name.startsWith('chat '))
        .map(span => span.attributes['gen_ai.output.messages']);
      if (!captureContent) {
        expect(output).toEqual([undefined, undefined]);
        continue;
      }
      expect(JSON.parse(String(output[0]))).toEqual([
        {
          role: 'assistant',
          parts: [
            { type: 'reasoning', content: thinking },
            { type: 'tool_call', id: 'call_1_1', name: 'lookup', arguments: '{"order":"A-1"}' },
          ],
          finish_reason: 'tool_call',
        },
      ]);
      const json = new TextDecoder().decode(JsonTraceSerializer.serializeRequest([...spans]));
      const { events } = importSpans(spansFromOtlpJson(json));
      expect(ends(events).map(end => end.reasoning)).toEqual([
        [{ text: thinking }],
        [{ text: 'It is refundable.' }],
      ]);
      expect(validateTrace(events).problems).toEqual([]);
    }
  });
});
