/**
 * Online scoring of a live app's runs: scored after they end, off the hot path; one evaluation
 * event per sampled run (and scorer) in the run's JSONL trace, valid, shown by replay, exported
 * over OTLP; a scorer that throws leaves the runs intact; the sample is drawn by run id; a budget
 * caps what judges spend; a rerun of the trace still says same.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, tool, type TraceEvent } from '@agent-trace/core';
import { defaultPrices } from '@agent-trace/core/cost';
import { inSample, llmJudge, onlineScoring, scorer, toolErrorRate } from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, validateTraceFile } from '@agent-trace/trace';
import { TraceLibrary } from '@agent-trace/trace/library';
import { otlpSink } from '@agent-trace/trace/otlp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { receiver } from '../otlp/otlp-fixtures.js';
import { answer, appScoring } from '../../examples/metrics/online-app.js';
import { cli } from '../support/cli.js';

const lookup = tool({
  name: 'lookup',
  description: 'Look an order up',
  input: z.object({ order: z.string() }),
  execute: ({ order }) => ({ order, status: 'shipped' }),
});

const desk = () =>
  agent({
    name: 'desk',
    tools: [lookup],
    model: fakeLLM(
      [{ toolCalls: [{ name: 'lookup', args: { order: 'A-1' } }] }, { text: 'It has shipped.' }],
      { allowUnusedSteps: true },
    ),
  });

const eventsOf = (file: string): TraceEvent[] =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map(line => JSON.parse(line) as TraceEvent);

const scratch = () => mkdtempSync(join(tmpdir(), 'online-scoring-'));

describe('onlineScoring', () => {
  it('writes one evaluation per sampled run of 1,000 after its end, valid, queryable', async () => {
    const folder = scratch();
    const file = join(folder, 'app.jsonl');
    const sink = jsonlSink(file);
    const scoring = onlineScoring({ scorers: [toolErrorRate()], sample: 0.25, to: sink });
    const ids: string[] = [];
    for (let index = 0; index < 1000; index++)
      ids.push((await run(desk(), `Where is A-${index}?`, { trace: [sink, scoring] })).runId);
    await scoring.drain();
    await sink.close();
    const drawn = ids.filter(id => inSample(id, 0.25));
    expect(drawn.length).toBeGreaterThan(180);
    expect(drawn.length).toBeLessThan(320);
    const events = eventsOf(file);
    const evaluations = events.filter(event => event.event === 'evaluation');
    expect(evaluations.map(event => event.run).sort()).toEqual([...drawn].sort());
    expect(scoring.stats).toMatchObject({
      sampled: drawn.length,
      scored: drawn.length,
      pending: 0,
    });
    const first = evaluations[0]!;
    const entry = events.find(event => event.run === first.run && event.event === 'agent_start')!;
    const end = events.find(event => event.run === first.run && event.event === 'run_end')!;
    expect(first).toMatchObject({
      name: 'tool_errors',
      score: 1,
      label: 'pass',
      explanation: '0 of 1 tool calls failed',
      parent_span_id: entry.span_id,
      seq: end.seq + 1,
    });
    expect(events.indexOf(first)).toBeGreaterThan(events.indexOf(end));
    expect((await validateTraceFile(file)).problems).toEqual([]);
    const library = new TraceLibrary(folder);
    await library.update();
    const { rows } = await library.query(
      'SELECT count(*) AS n, min(score) AS low FROM evaluations WHERE scorer = ?',
      ['tool_errors'],
    );
    expect(rows[0]).toEqual({ n: drawn.length, low: 1 });
    await library.settled();
  }, 60_000);

  it('never delays a run, and a scorer that throws leaves the runs intact', async () => {
    const file = join(scratch(), 'app.jsonl');
    const sink = jsonlSink(file);
    let release: () => void = () => undefined;
    const slow = scorer('slow', () => new Promise<number>(done => (release = () => done(1))));
    const boom = scorer('boom', () => {
      throw new Error('the scorer broke');
    });
    const scoring = onlineScoring({ scorers: [slow, boom], to: sink });
    const result = await run(desk(), 'Where is A-1?', { trace: [sink, scoring] });
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('It has shipped.');
    expect(result.traceErrors).toEqual([]);
    await new Promise(wait => setImmediate(wait));
    expect(scoring.stats).toMatchObject({ scored: 0, pending: 1 });
    release();
    await scoring.drain();
    await sink.close();
    expect(scoring.stats).toMatchObject({ scored: 1, failedScorers: 1, pending: 0 });
    const evaluations = eventsOf(file).filter(event => event.event === 'evaluation');
    expect(evaluations).toMatchObject([
      { name: 'slow', score: 1 },
      { name: 'boom', error: { type: 'scorer_error', message: 'the scorer broke' } },
    ]);
    expect((await validateTraceFile(file)).valid).toBe(true);
    const replay = await cli(['replay', file]);
    expect(replay.stdout).toContain('Evaluations\n  evaluation slow 1');
    expect(replay.stdout).toContain('evaluation boom failed: the scorer broke');
    const rerun = await cli(['rerun', file, '--agent', 'test/fixtures/agents/online-desk.ts']);
    expect(rerun.stdout).toContain('✓ same behaviour');
    expect(rerun.code).toBe(0);
  });

  it('stops scoring once its judges spent the budget', async () => {
    const file = join(scratch(), 'app.jsonl');
    const sink = jsonlSink(file);
    const judge = fakeLLM(
      Array.from({ length: 5 }, () => ({
        text: '{"score":1,"reason":"fine"}',
        usage: { promptTokens: 100_000, completionTokens: 1_000 },
      })),
      { modelId: 'gpt-4o-mini', allowUnusedSteps: true },
    );
    const scoring = onlineScoring({
      scorers: [llmJudge({ model: judge, rubric: 'Says where the order is.' })],
      to: sink,
      maxCostUsd: 0.01,
      runOptions: { prices: { 'fake:gpt-4o-mini': defaultPrices['openai:gpt-4o-mini']! } },
    });
    await run(desk(), 'Where is A-1?', { trace: [sink, scoring] });
    await scoring.drain();
    for (let index = 2; index <= 4; index++)
      await run(desk(), `Where is A-${index}?`, { trace: [sink, scoring] });
    await scoring.drain();
    await sink.close();
    expect(scoring.stats.costUsd).toBeGreaterThan(0.01);
    expect(scoring.stats).toMatchObject({ sampled: 4, scored: 1, overBudget: 3 });
    const [evaluation] = eventsOf(file).filter(event => event.event === 'evaluation');
    expect(evaluation).toMatchObject({ name: 'judge', score: 1 });
    expect((evaluation as { cost_usd?: number }).cost_usd).toBeCloseTo(scoring.stats.costUsd, 10);
  });

  it('sends each score over OTLP on the run’s entry agent', async () => {
    const collector = await receiver();
    const otlp = otlpSink({ endpoint: collector.url });
    const scoring = onlineScoring({ scorers: [toolErrorRate()], to: otlp });
    await run(desk(), 'Where is A-1?', { trace: [otlp, scoring] });
    await scoring.drain();
    await otlp.shutdown();
    const [log] = await collector.waitForLogs(1);
    expect(log!.attributes).toMatchObject({
      'gen_ai.evaluation.name': 'tool_errors',
      'gen_ai.evaluation.score.value': 1,
      'gen_ai.evaluation.score.label': 'pass',
    });
    expect(collector.spans.find(span => span.spanId === log!.spanId)?.name).toBe(
      'invoke_agent desk',
    );
  });

  it('scores the example app’s runs (examples/metrics/online-app.ts)', async () => {
    const file = join(scratch(), 'app.jsonl');
    const sink = jsonlSink(file);
    const scoring = appScoring(sink, undefined, 1);
    const result = await answer(desk(), 'Where is A-1?', sink, scoring);
    expect(result.text).toBe('It has shipped.');
    await scoring.drain();
    await sink.close();
    expect(
      eventsOf(file)
        .filter(event => event.event === 'evaluation')
        .map(event => (event as { name: string }).name),
    ).toEqual(['tool_errors', 'loops', 'repeated_tool_calls']);
  });

  it('draws the same runs in every process, in the share asked', () => {
    const ids = Array.from({ length: 10_000 }, (_, index) => `run-${index}`);
    const drawn = ids.filter(id => inSample(id, 0.5));
    expect(drawn.length / ids.length).toBeGreaterThan(0.47);
    expect(drawn.length / ids.length).toBeLessThan(0.53);
    expect(ids.filter(id => inSample(id, 0.5))).toEqual(drawn);
    expect(
      ids.filter(id => inSample(id, 0.1)).every(id => drawn.includes(id) || !inSample(id, 0.5)),
    ).toBe(true);
    expect(() => onlineScoring({ scorers: [], sample: 2, to: [] })).toThrow(/from 0 to 1/);
  });
});
