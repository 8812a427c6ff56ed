// Two shapes the first generator reported and no row held: a fallback model behind a primary that
// always fails, and a stream whose reader stops while two agents asked as tools are at work.
import {
  agent,
  ModelCallError,
  run,
  steppingClock,
  stream,
  tool,
  type AnyAgent,
} from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { formatDivergence, memorySink, rerunTrace, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const script = (steps: Parameters<typeof fakeLLM>[0]) => fakeLLM(steps, { allowUnusedSteps: true });

const said = (report: Awaited<ReturnType<typeof rerunTrace>>): string =>
  report.differences.map(formatDivergence).join('\n');

const lookup = tool({
  name: 'lookup',
  description: 'Looks an order up',
  input: z.object({ order: z.number() }),
  execute: ({ order }) => ({ order, status: 'shipped' }),
});

describe('a fallback model behind a primary that always fails', () => {
  const outage = () =>
    new ModelCallError({ kind: 'server', isRetryable: true, status: 503, message: '503' });
  const desk = () =>
    agent({
      name: 'desk',
      model: script(
        Array.from({ length: 8 }, () => () => {
          throw outage();
        }),
      ),
      fallbackModel: script([
        { toolCalls: [{ name: 'lookup', args: { order: 7 } }] },
        { text: 'Order 7 has shipped.' },
      ]),
      retry: { modelAttempts: 2, baseDelayMs: 200 },
      tools: [lookup],
    });

  it('reruns the same, every answer of the fallback in its place, 5 times', async () => {
    const sink = memorySink();
    const result = await run(desk(), 'Where is order 7?', { trace: sink, clock: steppingClock() });
    expect(result.output).toBe('Order 7 has shipped.');
    const fallbackAnswers = sink.events.filter(
      event => event.event === 'llm_end' && event.error === undefined,
    );
    expect(fallbackAnswers).toHaveLength(2);
    for (let time = 0; time < 5; time++) expect(said(await rerunTrace(sink.events, desk()))).toBe('');
  });
});

describe('a stream whose reader stops while two agents asked as tools are at work', () => {
  const advisor = (name: string) =>
    agent({
      name,
      model: script([
        { toolCalls: [{ name: 'lookup', args: { order: 7 } }] },
        { text: `${name}: shipped.` },
      ]),
      tools: [lookup],
    });
  const lead = (): AnyAgent =>
    agent({
      name: 'lead',
      model: script([
        {
          toolCalls: [
            { name: 'ask_north', args: { input: 'Order 7?' } },
            { name: 'ask_south', args: { input: 'Order 7?' } },
          ],
        },
        { text: 'Both say shipped.' },
      ]),
      tools: [advisor('north').asTool(), advisor('south').asTool()],
    });

  it('leaves every start with its end and reruns the same, wherever the reader stops', async () => {
    const full = memorySink();
    let chunks = 0;
    for await (const chunk of stream(lead(), 'Where is order 7?', { trace: full })) {
      expect(chunk).toBeDefined();
      chunks++;
    }
    expect(chunks).toBeGreaterThan(4);
    let aborted = 0;
    for (let stopAfter = 1; stopAfter < chunks; stopAfter++) {
      const sink = memorySink();
      const reading = stream(lead(), 'Where is order 7?', { trace: sink });
      let read = 0;
      for await (const chunk of reading) {
        expect(chunk).toBeDefined();
        if (++read === stopAfter) break;
      }
      // The last chunks come once the run has ended: stopping there stops nothing.
      expect(['aborted', 'completed'], `stopped after ${stopAfter}`).toContain(
        (await reading.result).stopReason,
      );
      expect(validateTrace(sink.events).problems, `stopped after ${stopAfter}`).toEqual([]);
      if ((await reading.result).stopReason === 'aborted') aborted++;
      const starts = sink.events.filter(event => event.event === 'handoff_start').length;
      const ends = sink.events.filter(event => event.event === 'handoff_end').length;
      expect(ends, `stopped after ${stopAfter}`).toBe(starts);
      expect(said(await rerunTrace(sink.events, lead())), `stopped after ${stopAfter}`).toBe('');
    }
    // Most stops land while the two are at work.
    expect(aborted).toBeGreaterThan(chunks / 2);
  });
});
