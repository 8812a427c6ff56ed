// A user's feature that wraps the model in the `model` hook and changes the request on its way
// (it scrubs e-mail addresses from every tool message): the trace's `llm_start` records what the
// model was sent, not what the loop made, and a rerun runs the wrapper again over the recorded
// answers, so another scrub diverges where it changes the request. Before, `llm_start` recorded the
// unscrubbed addresses and a rerun replaced the wrapper with the recorded answers: any scrub said
// *same*.
import {
  agent,
  ModelCallError,
  run,
  stream,
  tool,
  type AnyAgent,
  type TraceEvent,
} from '@agent-trace/core';
import { memoryCache } from '@agent-trace/core/cache';
import { standardFeatures, type Feature } from '@agent-trace/core/features';
import type { LanguageModel, ModelRequest, RunOptions } from '@agent-trace/core';
import { followConversation } from '@agent-trace/core/record';
import { fakeLLM } from '@agent-trace/testing';
import { formatDivergence, memorySink, rerunTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** The request with e-mail addresses in tool messages replaced by `replacement`. */
const scrubbed = (request: ModelRequest, replacement: string): ModelRequest => ({
  ...request,
  messages: request.messages.map(message =>
    message.role === 'tool'
      ? { ...message, content: message.content.replace(/[\w.]+@[\w.]+/g, replacement) }
      : message,
  ),
});

/** A user's feature: every model call goes through a wrapper that scrubs the request. */
const scrubbing = (replacement: string): Feature => ({
  name: 'scrub-emails',
  version: 2,
  forRun: () => ({
    model: ({ model }): LanguageModel => ({
      ...model,
      generate: request => model.generate(scrubbed(request, replacement)),
      stream: request => model.stream(scrubbed(request, replacement)),
    }),
  }),
});

const lookup = tool({
  name: 'customer',
  description: 'A customer',
  input: z.object({ id: z.number() }),
  execute: ({ id }) => ({ id, email: `client${id}@example.com` }),
});

/** Looks two customers up, one after the other, then answers. */
const desk = (): AnyAgent =>
  agent({
    name: 'desk',
    model: fakeLLM(
      [
        { toolCalls: [{ name: 'customer', args: { id: 7 } }] },
        { toolCalls: [{ name: 'customer', args: { id: 8 } }] },
        { text: 'Found both.' },
      ],
      { allowUnusedSteps: true },
    ),
    tools: [lookup],
  });

async function record(options: Omit<RunOptions, 'trace'>, streamed = false): Promise<TraceEvent[]> {
  const sink = memorySink();
  if (streamed) {
    const chunks = stream(desk(), 'Who are customers 7 and 8?', { ...options, trace: sink });
    for await (const _chunk of chunks);
    await chunks.result;
  } else await run(desk(), 'Who are customers 7 and 8?', { ...options, trace: sink });
  return sink.events;
}

const said = (report: Awaited<ReturnType<typeof rerunTrace>>): string =>
  report.differences.map(formatDivergence).join('\n');

const starts = (events: readonly TraceEvent[]) =>
  events.filter(
    (event): event is Extract<TraceEvent, { event: 'llm_start' }> => event.event === 'llm_start',
  );

describe("a feature's model wrapper that changes the request", () => {
  it.each([false, true])(
    'llm_start records what the model was sent (streamed: %s)',
    async streamed => {
      const features = [...standardFeatures, scrubbing('[email removed]')];
      const events = await record({ features }, streamed);
      const text = JSON.stringify(starts(events));
      expect(text).toContain('[email removed]');
      expect(text).not.toContain('@example.com');
      // A reader rebuilds each request as sent from the calls' messages.
      let conversation: ReturnType<typeof followConversation> = [];
      for (const start of starts(events)) conversation = followConversation(conversation, start);
      expect(conversation.map(message => message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
      ]);
      expect(conversation.filter(message => message.role === 'tool')).toEqual([
        expect.objectContaining({ content: '{"id":7,"email":"[email removed]"}' }),
        expect.objectContaining({ content: '{"id":8,"email":"[email removed]"}' }),
      ]);
      // The tool's own result stays in its tool_end.
      expect(events.find(event => event.event === 'tool_end')).toMatchObject({
        result: { email: 'client7@example.com' },
      });
    },
  );

  it('reruns as the same with the same wrapper, and diverges in words with another', async () => {
    const features = [...standardFeatures, scrubbing('[email removed]')];
    const events = await record({ features });
    expect(said(await rerunTrace(events, desk(), { run: { features } }))).toBe('');
    const other = await rerunTrace(events, desk(), {
      run: { features: [...standardFeatures, scrubbing('<hidden>')] },
    });
    expect(other.firstDivergence?.expected).toMatch(/^model call 2 of 'desk'/);
    expect(other.firstDivergence?.explanation?.map(change => change.summary).join('\n')).toMatch(
      /\[email removed\][\s\S]*<hidden>|<hidden>[\s\S]*\[email removed\]/,
    );
    // Without the wrapper, the model is sent the addresses: that diverges too.
    const none = await rerunTrace(events, desk(), { run: { features: standardFeatures } });
    expect(none.firstDivergence?.expected).toMatch(/^model call 2 of 'desk'/);
  });

  it('a wrapper that changes earlier messages differently each call is recorded as kept and new', async () => {
    let calls = 0;
    // Numbers every tool message with the call's number: each call rewrites the earlier ones.
    const numbering: Feature = {
      name: 'numbering',
      version: 2,
      forRun: () => ({
        model: ({ model }): LanguageModel => ({
          ...model,
          generate: request => {
            calls++;
            return model.generate({
              ...request,
              messages: request.messages.map(message =>
                message.role === 'tool' ? { ...message, content: `#${calls}` } : message,
              ),
            });
          },
        }),
      }),
    };
    const features = [...standardFeatures, numbering];
    const events = await record({ features });
    const third = starts(events)[2];
    expect(third).toMatchObject({ kept: 2, message_count: 5 });
    expect(third?.messages.map(message => message.role)).toEqual(['tool', 'assistant', 'tool']);
    calls = 0;
    expect(said(await rerunTrace(events, desk(), { run: { features } }))).toBe('');
  });

  it("a cache feature's hits and misses rerun as the same over the recorded answers", async () => {
    const cache = memoryCache();
    const first = await record({ cache });
    const second = await record({ cache });
    expect(second.filter(event => event.event === 'llm_end')).toEqual(
      expect.arrayContaining([expect.objectContaining({ cache_hit: true })]),
    );
    for (const events of [first, second])
      expect(said(await rerunTrace(events, desk(), { run: { cache: memoryCache() } }))).toBe('');
  });

  it('a retry the breaker refused is compared by its refusal, not by the request it never sent', async () => {
    // The first answer asks for a customer; the next call fails with a 429 and its retry is
    // refused by the breaker (threshold 1): it was never sent, so the wrapper never shaped it.
    const breaking = (failureThreshold: number) =>
      agent({
        name: 'desk',
        model: fakeLLM(
          [
            { toolCalls: [{ name: 'customer', args: { id: 7 } }] },
            () => {
              throw new ModelCallError({ kind: 'rate_limit', message: 'HTTP 429', status: 429 });
            },
            { text: 'Found.' },
          ],
          { allowUnusedSteps: true },
        ),
        tools: [lookup],
        retry: { modelAttempts: 2, baseDelayMs: 10 },
        circuitBreaker: { failureThreshold, scope: 'run' },
      });
    const features = [...standardFeatures, scrubbing('[email removed]')];
    const sink = memorySink();
    await run(breaking(1), 'Who is customer 7?', { features, trace: sink });
    expect(
      sink.events.filter(event => event.event === 'llm_end' && event.error !== undefined),
    ).toEqual([
      expect.objectContaining({ error: expect.objectContaining({ type: 'rate_limit' }) }),
      expect.objectContaining({ error: expect.objectContaining({ type: 'circuit_open' }) }),
    ]);
    // The refused retry adds nothing to what the trace says the model was sent.
    expect(JSON.stringify(starts(sink.events))).not.toContain('@example.com');
    expect(said(await rerunTrace(sink.events, breaking(1), { run: { features } }))).toBe('');
    const raised = await rerunTrace(sink.events, breaking(5), { run: { features } });
    expect(raised.firstDivergence?.expected).toBe('the model fails: circuit_open');
  });
});
