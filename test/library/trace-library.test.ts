/**
 * The trace library: a folder of traces indexed incrementally in DuckDB, and the questions asked
 * across runs with SQL over its views and with run filters.
 */
import { TraceLibrary } from '@agent-trace/trace/library';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copiedRun, deskRunLines, writeDeskFolder, type DeskRun } from '../support/trace-folder.js';

let folder: string;
let runs: Record<DeskRun, string[]>;
let library: TraceLibrary;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'agent-trace-library-'));
  runs = await writeDeskFolder(folder, 4, 6);
  library = new TraceLibrary(folder);
  const update = await library.update();
  expect(update).toMatchObject({ files: 4, read: 4, rewritten: 0, removed: 0, skippedLines: 0 });
});

/** The event at a row's file and byte offset. */
function eventAt(row: Record<string, unknown>): Record<string, unknown> {
  const text = readFileSync(join(folder, String(row.file)));
  const start = Number(row.offset);
  return JSON.parse(text.toString('utf8', start, text.indexOf(0x0a, start))) as Record<
    string,
    unknown
  >;
}

describe('the trace library', () => {
  it('has a row per run: its stop, counts, tokens, cost, input and output, with file and offset', async () => {
    const { rows } = await library.query('SELECT * FROM runs ORDER BY run');
    expect(rows).toHaveLength(24);
    const failed = rows.find(row => row.run === runs.refund_fails[0])!;
    expect(failed).toMatchObject({
      entry_agent: 'triage',
      stop_reason: 'tool_failure_degraded',
      llm_calls: 4,
      tool_calls: 4,
      tool_errors: 3,
      input: 'Refund order A-1, it arrived broken.',
      file: 'desk-00000.jsonl',
    });
    expect(failed.cost_usd).toBeGreaterThan(0);
    expect(eventAt(failed)).toMatchObject({ event: 'run_start', run: failed.run });
    const answered = rows.find(row => row.run === runs.answered[0])!;
    expect(answered).toMatchObject({
      stop_reason: 'completed',
      output: 'We ship within two days.',
    });
  });

  it('has rows per agent, model call, tool call, handoff and event, each at its event in its file', async () => {
    const run = runs.refunded[1]!;
    const views = ['agents', 'llm_calls', 'tool_calls', 'handoffs', 'events'];
    const counts = await Promise.all(
      views.map(
        async view =>
          (await library.query(`SELECT * FROM ${view} WHERE run = $1 ORDER BY "offset"`, [run]))
            .rows,
      ),
    );
    expect(counts.map(rows => rows.length)).toEqual([2, 4, 2, 1, 20]);
    const [agents, calls, tools, handoffs] = counts;
    expect(agents!.map(row => [row.agent, row.model, row.stop_reason])).toEqual([
      ['triage', 'gpt-4o-mini', 'completed'],
      ['billing', 'gpt-4o-mini', 'completed'],
    ]);
    expect(tools!.map(row => [row.tool, row.args, row.error_type])).toEqual([
      ['lookup', '{"order":"A-1"}', null],
      ['refund', '{"order":"A-1"}', null],
    ]);
    expect(handoffs![0]).toMatchObject({
      from_agent: 'triage',
      to_agent: 'billing',
      mode: 'pass_control',
    });
    for (const row of [...agents!, ...calls!, ...tools!, ...handoffs!, ...counts[4]!])
      expect(eventAt(row)).toMatchObject({ run });
    expect(eventAt(calls![3]!)).toMatchObject({ event: 'llm_end', text: 'Order A-1 is refunded.' });
  });

  it('answers the questions asked across runs: who called refund and then failed, the most expensive, repeated handoffs', async () => {
    const failedRefunds = await library.query(
      `SELECT DISTINCT r.run FROM runs r JOIN tool_calls t ON t.run = r.run AND t.file = r.file
       WHERE t.tool = 'refund' AND r.stop_reason <> 'completed' ORDER BY r.run`,
    );
    expect(failedRefunds.rows.map(row => row.run)).toEqual(runs.refund_fails);
    const expensive = await library.query(
      'SELECT run, cost_usd FROM runs ORDER BY cost_usd DESC LIMIT 20',
    );
    expect(expensive.rows).toHaveLength(20);
    const costs = expensive.rows.map(row => Number(row.cost_usd));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(runs.refund_fails).toContain(expensive.rows[0]!.run);
    const handedOff = await library.query(
      `SELECT run, count(*) AS times FROM handoffs WHERE from_agent = 'triage' AND to_agent = 'billing'
       GROUP BY run HAVING count(*) >= 1 ORDER BY run`,
    );
    expect(handedOff.rows).toHaveLength(16);
  });

  it('filters runs by tool, stop, error, agent, model, session, time, cost and text, and sorts them', async () => {
    const ids = async (filter: Parameters<TraceLibrary['runs']>[0]) =>
      (await library.runs({ limit: 100, ...filter })).rows.map(row => row.run as string).sort();
    expect(await ids({ tool: 'refund', stop: 'failed' })).toEqual(runs.refund_fails);
    expect(await ids({ stop: 'tool_failure_degraded' })).toEqual(runs.refund_fails);
    expect(await ids({ error: true })).toEqual(runs.refund_fails);
    expect(await ids({ error: 'execution_failed' })).toEqual(runs.refund_fails);
    expect(await ids({ error: 'rate_limit' })).toEqual([]);
    expect(await ids({ agent: 'billing' })).toEqual(
      [...runs.refunded, ...runs.refund_fails].sort(),
    );
    expect(await ids({ model: 'gpt-4o-mini' })).toHaveLength(24);
    expect(await ids({ model: 'gpt-4o' })).toEqual([]);
    expect(await ids({ session: runs.answered[2]! })).toEqual([runs.answered[2]]);
    expect(await ids({ text: 'two days' })).toEqual(runs.answered);
    expect(await ids({ text: 'payment provider refused' })).toEqual(runs.refund_fails);
    expect(await ids({ text: '100%' })).toEqual([]);
    // Any case, and `%` and `_` are plain characters, not wildcards.
    expect(await ids({ text: 'Payment PROVIDER refused' })).toEqual(runs.refund_fails);
    expect(await ids({ text: 'payment_provider' })).toEqual([]);
    // Runs start an hour apart from 2026-11-01 09:00: the last four hours hold four runs.
    expect(
      await ids({ since: new Date(Date.parse('2026-11-01T09:00:00Z') + 20 * 3_600_000) }),
    ).toHaveLength(4);
    expect(
      await ids({ until: new Date(Date.parse('2026-11-01T09:00:00Z') + 2 * 3_600_000) }),
    ).toHaveLength(2);
    const byCost = (await library.runs({ sort: 'cost', limit: 3 })).rows;
    expect(runs.refund_fails).toContain(byCost[0]!.run);
    // A question costs $0.0000065, a refund $0.0000384: under $0.00001, only questions.
    const cheap = await ids({ maxCostUsd: 0.00001 });
    expect(cheap).toEqual(runs.answered);
  });
});

describe('the index, updated', () => {
  it('reads only what was appended, picks a torn line up once it is complete, and re-reads a rewritten file', async () => {
    const own = mkdtempSync(join(tmpdir(), 'agent-trace-library-grow-'));
    await writeDeskFolder(own, 3, 2);
    const grown = new TraceLibrary(own);
    await grown.update();
    const extra = copiedRun(await deskRunLines('answered'), 'run-late', 0);
    appendFileSync(join(own, 'desk-00001.jsonl'), extra);
    const appended = await grown.update();
    expect(appended).toMatchObject({ read: 1, bytes: Buffer.byteLength(extra), events: 6 });
    expect((await grown.runs({ text: 'two days' })).rows.map(row => row.run)).toContain('run-late');

    // A run being written: its last line torn. It is read once it is whole.
    const [first, ...rest] = copiedRun(await deskRunLines('refunded'), 'run-writing', 0).split(
      '\n',
    );
    const torn = first!.slice(0, 40);
    appendFileSync(join(own, 'desk-00002.jsonl'), torn);
    expect(await grown.update()).toMatchObject({ read: 1, bytes: 0, events: 0 });
    appendFileSync(join(own, 'desk-00002.jsonl'), `${first!.slice(40)}\n${rest.join('\n')}`);
    const completed = await grown.update();
    expect(completed.events).toBe(20);
    const copies = await grown.query("SELECT count(*) AS n FROM events WHERE run = 'run-writing'");
    expect(copies.rows[0]!.n).toBe(20);

    // Rewritten (shorter, other first bytes) and removed files.
    writeFileSync(join(own, 'desk-00000.jsonl'), extra.replaceAll('run-late', 'run-new'));
    rmSync(join(own, 'desk-00001.jsonl'));
    expect(await grown.update()).toMatchObject({ files: 2, rewritten: 1, removed: 1, events: 6 });
    const left = (await grown.query('SELECT DISTINCT run FROM events ORDER BY run')).rows.map(
      row => row.run,
    );
    expect(left).toEqual(['run-000004', 'run-000005', 'run-new', 'run-writing']);
    const unchanged = await grown.update();
    expect(unchanged).toMatchObject({ read: 0, bytes: 0 });
  });

  it('counts lines that are not trace events, and says where the first is', async () => {
    const own = mkdtempSync(join(tmpdir(), 'agent-trace-library-mixed-'));
    const lines = copiedRun(await deskRunLines('answered'), 'run-1', 0);
    writeFileSync(join(own, 'mixed.jsonl'), `${lines}{"not":"an event"}\nnot json\n`);
    const mixed = new TraceLibrary(own);
    expect(await mixed.update()).toMatchObject({ events: 6, skippedLines: 2 });
    expect(await mixed.files()).toEqual([
      {
        path: 'mixed.jsonl',
        indexedBytes: Buffer.byteLength(lines) + 28,
        skippedLines: 2,
        firstSkippedOffset: Buffer.byteLength(lines),
        skippedReason: 'not a trace event (no run or event)',
        notUtf8Offset: undefined,
        problem: `2 lines are not trace events and were skipped (the first at byte ${Buffer.byteLength(lines)}: not a trace event (no run or event))`,
      },
    ]);
  });

  it('says what to do when the folder or the index is missing', async () => {
    const nowhere = new TraceLibrary(join(tmpdir(), 'agent-trace-no-such-folder'));
    await expect(nowhere.update()).rejects.toThrow(/No folder .*agent-trace-no-such-folder/);
    await expect(nowhere.query('SELECT 1')).rejects.toThrow(/run `agent-trace index/);
  });
});

describe('the cost of runs', () => {
  it('is unknown (NULL), not $0, for a run with calls of a model that has no price', async () => {
    const { agent, run } = await import('@agent-trace/core');
    const { fakeLLM } = await import('@agent-trace/testing');
    const { jsonlSink } = await import('@agent-trace/trace');
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-library-cost-'));
    const sink = jsonlSink(join(folder, 'unpriced.jsonl'));
    await run(
      agent({ name: 'a', model: fakeLLM([{ text: 'ok' }], { modelId: 'no-price' }) }),
      'go',
      {
        trace: sink,
      },
    );
    await sink.close();
    const library = new TraceLibrary(folder);
    await library.update();
    const { rows } = await library.query('SELECT cost_usd, unpriced_calls FROM runs');
    expect(rows).toEqual([{ cost_usd: null, unpriced_calls: 1 }]);
    const agents = await library.query('SELECT cost_usd FROM agents');
    expect(agents.rows).toEqual([{ cost_usd: null }]);
  });
});
