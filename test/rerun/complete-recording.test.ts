// A rerun reads every input a run depended on from its recording, replays only the outside world
// (the model's answers, the tools' results, the clock) and decides everything else again; recorded
// waits take no real time. Each case here was a false divergence, a missed change or a rerun that
// slept through a recorded outage before its fix.
import {
  agent,
  ModelCallError,
  run,
  steppingClock,
  stream,
  tool,
  type AnyAgent,
  type RunOptions,
  type TraceEvent,
} from '@agent-trace/core';
import { standardFeatures, type Feature } from '@agent-trace/core/features';
import { fakeLLM } from '@agent-trace/testing';
import { formatDivergence, memorySink, rerunTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

async function record(
  entry: AnyAgent,
  input: string,
  options: Omit<RunOptions, 'trace'> = {},
): Promise<TraceEvent[]> {
  const sink = memorySink();
  await run(entry, input, { ...options, trace: sink });
  return sink.events;
}

const said = (report: Awaited<ReturnType<typeof rerunTrace>>): string =>
  report.differences.map(formatDivergence).join('\n');

const script = (steps: Parameters<typeof fakeLLM>[0]) => fakeLLM(steps, { allowUnusedSteps: true });

describe('tool arguments: what the model sent, and what the schema made of it', () => {
  /** A search tool whose schema fills in a default and transforms a field. */
  const desk = ({ limit = 5, casing = 'upper' }: { limit?: number; casing?: string } = {}) =>
    agent({
      name: 'desk',
      instructions: 'Search.',
      model: script([
        { toolCalls: [{ name: 'search', args: { q: 'cats', tag: 'Pets' } }] },
        { text: 'Found them.' },
      ]),
      tools: [
        tool({
          name: 'search',
          description: 'Search the catalogue',
          input: z.object({
            q: z.string(),
            limit: z.number().default(limit),
            tag: z.string().transform(tag => (casing === 'upper' ? tag.toUpperCase() : tag)),
          }),
          execute: ({ q, limit: count, tag }) => `${count} results for ${q} in ${tag}`,
        }),
      ],
    });

  it('reruns a tool with a zod default and a transform as the same, the recording looked up by the model arguments', async () => {
    const events = await record(desk(), 'Find cats');
    const end = events.find(event => event.event === 'tool_end');
    expect(end).toMatchObject({
      args: { q: 'cats', tag: 'Pets' },
      input: { q: 'cats', limit: 5, tag: 'PETS' },
      result: '5 results for cats in PETS',
    });
    const report = await rerunTrace(events, desk());
    expect(said(report)).toBe('');
  });

  it('catches a changed default and a changed transform at the tool call, naming what the tool ran with', async () => {
    const events = await record(desk(), 'Find cats');
    for (const [changed, words] of [
      [{ limit: 10 }, /"limit":10/],
      [{ casing: 'as given' }, /"tag":"Pets"/],
    ] as const) {
      const report = await rerunTrace(events, desk(changed));
      const atTool = report.differences.find(each => each.expected?.startsWith("tool 'search'"));
      expect(atTool?.actual, said(report)).toMatch(words);
      expect(atTool?.expected).toMatch(/run with \{"limit":5,"q":"cats","tag":"PETS"\}/);
    }
  });

  it('leaves input off the trace when the schema changed nothing', async () => {
    const plain = agent({
      name: 'plain',
      model: script([{ toolCalls: [{ name: 'echo', args: { text: 'hi' } }] }, { text: 'ok' }]),
      tools: [
        tool({
          name: 'echo',
          description: 'Echo',
          input: z.object({ text: z.string() }),
          execute: ({ text }) => text,
        }),
      ],
    });
    const events = await record(plain, 'Echo hi');
    const end = events.find(event => event.event === 'tool_end');
    expect(end).toBeDefined();
    expect(end).not.toHaveProperty('input');
  });
});

describe('odd tool results', () => {
  const desk = () =>
    agent({
      name: 'desk',
      model: script([
        {
          toolCalls: [
            { name: 'when', args: {} },
            { name: 'big', args: {} },
          ],
        },
        { text: 'Done.' },
      ]),
      tools: [
        tool({
          name: 'when',
          description: 'A date',
          input: z.object({}),
          execute: () => new Date(Date.UTC(2020, 0, 1)),
        }),
        tool({
          name: 'big',
          description: 'A number JSON cannot hold',
          input: z.object({}),
          execute: () => 10n,
        }),
      ],
      retry: { toolRetries: 1 },
    });

  it('a Date reads as its text, not quoted, and a BigInt fails with one message: both rerun as the same', async () => {
    const events = await record(desk(), 'Go');
    const told = events
      .filter(event => event.event === 'llm_start')
      .flatMap(event => (event.event === 'llm_start' ? event.messages : []))
      .filter(message => message.role === 'tool');
    expect(told.map(message => message.content)).toEqual([
      '2020-01-01T00:00:00.000Z',
      expect.stringMatching(/^Tool 'big' is unavailable: .*cannot be sent to the LLM/),
    ]);
    // Through JSON, as a JSONL file keeps it: the Date is its text there.
    const written = JSON.parse(JSON.stringify(events)) as TraceEvent[];
    const report = await rerunTrace(written, desk());
    expect(said(report)).toBe('');
    expect(JSON.stringify(report.rerun)).not.toContain("failed: Tool 'big'");
  });
});

describe('a conversation continued with history', () => {
  const assistant = () =>
    agent({
      name: 'assistant',
      model: script([{ text: 'Hello Ana.' }, { text: 'Your name is Ana.' }]),
    });

  it('records the messages a run started from, and reruns the second turn from them as the same', async () => {
    const sink = memorySink();
    const entry = assistant();
    const first = await run(entry, 'Hi, I am Ana.', { trace: sink });
    const second = await run(entry, 'What is my name?', { trace: sink, history: first.messages });
    expect(second.output).toBe('Your name is Ana.');
    const starts = sink.events.filter(event => event.event === 'run_start');
    expect(starts[0]).not.toHaveProperty('history');
    expect(starts[1]).toMatchObject({
      input: 'What is my name?',
      history: [
        { role: 'user', content: 'Hi, I am Ana.' },
        { role: 'assistant', content: 'Hello Ana.', tool_calls: [] },
      ],
    });
    for (const start of starts) {
      const report = await rerunTrace(sink.events, assistant(), { runId: start.run });
      expect(said(report)).toBe('');
    }
  });

  it('says so when a trace of two runs is rerun for its first alone', async () => {
    const sink = memorySink();
    const entry = assistant();
    const first = await run(entry, 'Hi, I am Ana.', { trace: sink });
    await run(entry, 'What is my name?', { trace: sink, history: first.messages });
    const warned = new Promise<Error>(resolve => process.once('warning', resolve));
    await rerunTrace(sink.events, assistant());
    const warning = (await warned) as Error & { code?: string };
    expect(warning.code).toBe('AGENT_TRACE_FIRST_RUN_ONLY');
    expect(warning.message).toContain('The trace holds 2 runs; only its first');
  });

  it('redacts the history as it redacts the rest of the trace', async () => {
    const sink = memorySink();
    await run(assistant(), 'Anything new?', {
      trace: sink,
      history: [{ role: 'user', content: 'My key is sk-abcdefghijklmnopqrstuvwxyz0123456789' }],
    });
    const start = sink.events.find(event => event.event === 'run_start');
    expect(start).toMatchObject({
      history: [{ role: 'user', content: expect.stringContaining('My key is') as unknown }],
    });
    expect(JSON.stringify(start)).not.toContain('sk-abcdefghijklmnopqrstuvwxyz0123456789');
  });
});

describe('decisions made again: breakers', () => {
  const outage = () =>
    new ModelCallError({ kind: 'server', isRetryable: true, status: 503, message: '503' });

  /** A tool that fails twice, retried twice, behind a breaker that opens after `threshold` failures. */
  const flakyDesk = (threshold: number) => {
    let calls = 0;
    return agent({
      name: 'desk',
      model: script([{ toolCalls: [{ name: 'stock', args: { sku: 'A' } }] }, { text: 'Done.' }]),
      tools: [
        tool({
          name: 'stock',
          description: 'Units in stock',
          input: z.object({ sku: z.string() }),
          execute: () => {
            calls++;
            if (calls <= 2) throw new Error('the warehouse is down');
            return 12;
          },
        }),
      ],
      retry: { toolRetries: 2 },
      circuitBreaker: { failureThreshold: threshold, scope: 'run' },
    });
  };

  it("a tool breaker's recorded refusal is decided again: unchanged, same; a raised threshold, caught", async () => {
    const events = await record(flakyDesk(2), 'Stock of A?');
    const ends = events.filter(event => event.event === 'tool_end');
    expect(ends.map(event => event.error?.type ?? 'ok')).toContain('circuit_open');
    expect(said(await rerunTrace(events, flakyDesk(2)))).toBe('');
    const raised = await rerunTrace(events, flakyDesk(5));
    expect(raised.same).toBe(false);
    expect(raised.firstDivergence?.expected).toMatch(/tool 'stock' fails: circuit_open/);
  });

  /** A model that fails three times with a 503, behind a breaker that opens after `threshold`. */
  const outageDesk = (threshold: number) =>
    agent({
      name: 'desk',
      model: script([
        () => {
          throw outage();
        },
        () => {
          throw outage();
        },
        () => {
          throw outage();
        },
        { text: 'Back.' },
      ]),
      retry: { modelAttempts: 4, baseDelayMs: 4000 },
      circuitBreaker: { failureThreshold: threshold, scope: 'run' },
    });

  it("a model breaker's recorded refusal is decided again", async () => {
    const events = await record(outageDesk(2), 'Hello?', { clock: steppingClock() });
    expect(said(await rerunTrace(events, outageDesk(2)))).toBe('');
    const raised = await rerunTrace(events, outageDesk(5));
    expect(raised.firstDivergence?.expected).toBe('the model fails: circuit_open');
  });

  it('a recorded outage that waited 45 s (four 503s, 4 s base backoff) reruns as the same in under a second', async () => {
    const fourOutages = () =>
      agent({
        name: 'desk',
        model: script([
          ...Array.from({ length: 4 }, () => () => {
            throw outage();
          }),
          { text: 'Back.' },
        ]),
        retry: { modelAttempts: 5, baseDelayMs: 4000, maxDelayMs: 60_000 },
        circuitBreaker: false,
      });
    const events = await record(fourOutages(), 'Hello?', {
      clock: steppingClock(),
      random: () => 0.5,
    });
    const waited = events.reduce(
      (sum, event) => sum + (event.event === 'retry' ? event.delay_ms : 0),
      0,
    );
    expect(waited).toBe(45_000);
    const started = performance.now();
    const report = await rerunTrace(events, fourOutages());
    expect(performance.now() - started).toBeLessThan(1000);
    expect(said(report)).toBe('');
    expect(report.result).toMatchObject({ stopReason: 'completed', output: 'Back.' });
  });
});

describe('stops from outside, replayed where they happened', () => {
  /** A tool that answers after 300 ms unless its signal aborts it first. */
  const slowDesk = () =>
    agent({
      name: 'desk',
      model: script([{ toolCalls: [{ name: 'slow', args: {} }] }, { text: 'Done.' }]),
      tools: [
        tool({
          name: 'slow',
          description: 'Slow',
          input: z.object({}),
          execute: (_input, { abortSignal }) =>
            new Promise((resolve, reject) => {
              const timer = setTimeout(() => resolve('late'), 300);
              abortSignal.addEventListener('abort', () => {
                clearTimeout(timer);
                reject(abortSignal.reason as Error);
              });
            }),
        }),
      ],
      retry: { toolRetries: 2 },
    });

  it("a caller's AbortSignal that cut a tool call reruns as the same: aborted, not a tool crash retried", async () => {
    const events = await record(slowDesk(), 'Go', { signal: AbortSignal.timeout(40) });
    expect(events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'aborted' });
    const report = await rerunTrace(events, slowDesk());
    expect(said(report)).toBe('');
    expect(report.result).toMatchObject({ stopReason: 'aborted' });
  });

  it('a run stopped by its timeoutMs records the limit and reruns as the same; a raised timeoutMs is caught', async () => {
    const events = await record(slowDesk(), 'Go', { timeoutMs: 40 });
    expect(events[0]).toMatchObject({ event: 'run_start', timeout_ms: 40 });
    expect(events.at(-1)).toMatchObject({
      event: 'run_end',
      stop_reason: 'timeout',
      limit: { name: 'timeoutMs', value: 40 },
    });
    const started = performance.now();
    const report = await rerunTrace(events, slowDesk(), { run: { timeoutMs: 40 } });
    expect(performance.now() - started).toBeLessThan(250);
    expect(said(report)).toBe('');
    expect(report.result).toMatchObject({ stopReason: 'timeout' });
    const raised = await rerunTrace(events, slowDesk(), { run: { timeoutMs: 5000 } });
    expect(raised.firstDivergence?.expected).toBe("tool 'slow' fails: timeout");
    const message = raised.rerun.find(
      event => event.event === 'tool_end' && event.error !== undefined,
    );
    expect(message).toMatchObject({
      error: { message: expect.stringMatching(/timeoutMs \(5000\)/) as unknown },
    });
  });

  it('an abort during a retry’s backoff reruns as the same, whatever the backoff’s jitter', async () => {
    const outage = () => new ModelCallError({ kind: 'server', isRetryable: true, message: '503' });
    const desk = () =>
      agent({
        name: 'desk',
        model: script([
          () => {
            throw outage();
          },
          () => {
            throw outage();
          },
          { text: 'Back.' },
        ]),
        retry: { modelAttempts: 3, baseDelayMs: 400 },
      });
    const events = await record(desk(), 'Hello?', { signal: AbortSignal.timeout(300) });
    expect(events.filter(event => event.event === 'retry').length).toBeGreaterThan(0);
    for (let time = 0; time < 5; time++) expect(said(await rerunTrace(events, desk()))).toBe('');
  });

  it('a stream whose reader stopped after a handoff reruns as the same: aborted, not an error', async () => {
    const desk = () =>
      agent({
        name: 'triage',
        model: script([{ toolCalls: [{ name: 'transfer_to_billing' }] }]),
        handoffs: [agent({ name: 'billing', model: script([{ text: 'Refund issued.' }]) })],
      });
    const sink = memorySink();
    const chunks = stream(desk(), 'Refund', { trace: sink });
    for await (const chunk of chunks) if (chunk.type === 'handoff') break;
    expect((await chunks.result).stopReason).toBe('aborted');
    const report = await rerunTrace(sink.events, desk());
    expect(said(report)).toBe('');
    expect(report.result).toMatchObject({ stopReason: 'aborted' });
  });
});

describe('what the model was sent is what the trace says', () => {
  /** A user's feature: e-mail addresses in tool results are replaced before the model reads them. */
  const scrub = (replacement: string): Feature => ({
    name: 'scrub-emails',
    version: 2,
    forRun: () => ({
      transformToolResult: ({ content }) => content.replace(/[\w.]+@[\w.]+/g, replacement),
    }),
  });
  const desk = () =>
    agent({
      name: 'desk',
      model: script([
        { toolCalls: [{ name: 'customer', args: { id: 7 } }] },
        { text: 'Found the customer.' },
      ]),
      tools: [
        tool({
          name: 'customer',
          description: 'A customer',
          input: z.object({ id: z.number() }),
          execute: ({ id }) => ({ id, email: 'ana@example.com' }),
        }),
      ],
    });

  it("a feature's transform of a tool result is what llm_start records; the same reruns as the same, another diverges at the transform", async () => {
    const features = [...standardFeatures, scrub('[email removed]')];
    const events = await record(desk(), 'Who is customer 7?', { features });
    const sent = events.filter(event => event.event === 'llm_start').at(-1);
    expect(JSON.stringify(sent)).toContain('[email removed]');
    expect(JSON.stringify(sent)).not.toContain('ana@example.com');
    // The tool's own result stays in its tool_end.
    expect(events.find(event => event.event === 'tool_end')).toMatchObject({
      result: { email: 'ana@example.com' },
    });
    expect(said(await rerunTrace(events, desk(), { run: { features } }))).toBe('');
    const other = await rerunTrace(events, desk(), {
      run: { features: [...standardFeatures, scrub('<hidden>')] },
    });
    // The first divergence names the transform that changed what the model reads.
    expect(other.firstDivergence?.expected).toMatch(
      /^feature 'scrub-emails' changed what the model reads of tool 'customer' to .*\[email removed\]/,
    );
    expect(other.firstDivergence?.actual).toMatch(/<hidden>/);
  });
});
