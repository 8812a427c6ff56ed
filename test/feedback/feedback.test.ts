/**
 * People's feedback on runs: recorded from code (`recordFeedback`) and the CLI as `feedback`
 * events appended to the run's trace file, valid by the trace rules, shown by `replay`, never
 * compared by a rerun, queried through the library's `feedback` view (which `regress --where`
 * selects runs by), and exported over OTLP as `gen_ai.evaluation.result` events.
 */
import { readFileSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type TraceEvent } from '@agent-trace/core';
import {
  FeedbackError,
  jsonlSink,
  readFeedback,
  recordFeedback,
  validateTraceFile,
} from '@agent-trace/trace';
import { TraceLibrary } from '@agent-trace/trace/library';
import { otlpSink } from '@agent-trace/trace/otlp';
import { beforeEach, describe, expect, it } from 'vitest';
import { smallDesk } from '../fixtures/agents/small-desk.js';
import { receiver } from '../otlp/otlp-fixtures.js';
import { answer, thumbsDown } from '../../examples/feedback/thumbs.js';
import { cli } from '../support/cli.js';

const desk = 'test/fixtures/agents/small-desk.ts';

const eventsOf = (file: string): TraceEvent[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(line => line !== '')
    .map(line => JSON.parse(line) as TraceEvent);

let folder = '';
let file = '';
let runs: string[] = [];
beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'feedback-'));
  file = join(folder, 'desk.jsonl');
  const sink = jsonlSink(file);
  const first = await run(smallDesk(), 'Weather in Paris', { trace: sink });
  const second = await run(smallDesk(), 'A refund, please', { trace: sink });
  await sink.close();
  runs = [first.runId, second.runId];
});

describe('recordFeedback', () => {
  it('appends a feedback event after the run, judging its entry agent, valid by the trace rules', async () => {
    const event = await recordFeedback(file, {
      run: runs[0]!,
      score: -1,
      label: 'wrong-order',
      comment: 'wrong order',
      by: 'ana',
    });
    const events = eventsOf(file);
    expect(events.at(-1)).toEqual(event);
    const own = events.filter(each => each.run === runs[0] && each.event !== 'feedback');
    const entry = own.find(each => each.event === 'agent_start' && each.agent === 'triage')!;
    expect(event).toMatchObject({
      event: 'feedback',
      seq: own.at(-1)!.seq + 1,
      parent_span_id: entry.span_id,
      trace_id: entry.trace_id,
      agent: 'triage',
      score: -1,
      label: 'wrong-order',
      comment: 'wrong order',
      by: 'ana',
      source: 'code',
    });
    const report = await validateTraceFile(file);
    expect(report.problems).toEqual([]);
    expect(report.valid).toBe(true);
    expect(await readFeedback(file, { run: runs[0]! })).toEqual([event]);
    expect(await readFeedback(file, { run: runs[1]! })).toEqual([]);
  });

  it('numbers feedback given at once on from each other', async () => {
    const given = await Promise.all([
      recordFeedback(file, { run: runs[1]!, score: 1 }),
      recordFeedback(file, { run: runs[1]!, label: 'polite' }),
      recordFeedback(file, { run: runs[1]!, comment: 'fine' }),
    ]);
    const seqs = given.map(event => event.seq);
    expect(new Set(seqs).size).toBe(3);
    expect(Math.max(...seqs) - Math.min(...seqs)).toBe(2);
    expect((await validateTraceFile(file)).valid).toBe(true);
  });

  it('replaces a secret in the comment, as in a run', async () => {
    const key = `sk-proj-${'a1B2'.repeat(8)}`;
    const event = await recordFeedback(file, { run: runs[0]!, comment: `it printed ${key}` });
    expect(event.comment).not.toContain(key);
    expect(readFileSync(file, 'utf8')).not.toContain(key);
  });

  it('refuses what is not a feedback, an unknown run and a run not ended, writing nothing', async () => {
    const size = statSync(file).size;
    await expect(recordFeedback(file, { run: runs[0]! })).rejects.toThrow(
      /says nothing: give a score, a label or a comment/,
    );
    await expect(recordFeedback(file, { run: runs[0]!, score: Number.NaN })).rejects.toThrow(
      /a score is a finite number/,
    );
    await expect(recordFeedback(file, { run: 'run-nope', score: 1 })).rejects.toThrow(
      new RegExp(`has no run 'run-nope' \\(its runs include ${runs[0]}, ${runs[1]}\\)`),
    );
    expect(statSync(file).size).toBe(size);
    const cut = join(folder, 'cut.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    const end = lines.findIndex(line => line.includes('"event":"run_end"'));
    writeFileSync(cut, `${lines.slice(0, end).join('\n')}\n`);
    const error = await recordFeedback(cut, { run: runs[0]!, score: 1 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FeedbackError);
    expect((error as Error).message).toMatch(/has not ended \(no run_end\)/);
    writeFileSync(cut, `${readFileSync(file, 'utf8')}{"v":1,"seq"`);
    await expect(recordFeedback(cut, { run: runs[0]!, score: 1 })).rejects.toThrow(
      /remove the torn line first/,
    );
  });
});

describe('the thumbs example (examples/feedback/thumbs.ts)', () => {
  it('records the answer, then the thumbs down given later, into the same file', async () => {
    const traced = join(folder, 'app.jsonl');
    const runId = await answer(smallDesk(), 'Where is my order?', traced);
    await thumbsDown(traced, runId, 'It told me the weather.');
    expect(await readFeedback(traced)).toMatchObject([
      { run: runId, score: -1, comment: 'It told me the weather.', by: 'customer-42' },
    ]);
    expect((await validateTraceFile(traced)).valid).toBe(true);
  });
});

describe('feedback in the trace', () => {
  it('is refused by validate before its run ends, and on a span not the run’s', async () => {
    const event = await recordFeedback(file, { run: runs[0]!, score: 1 });
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const early = join(folder, 'early.jsonl');
    writeFileSync(early, `${[JSON.stringify(event), ...lines.slice(0, -1)].join('\n')}\n`);
    const report = await validateTraceFile(early);
    expect(report.problems.map(problem => problem.kind)).toContain('judgment_before_end');
    const astray = join(folder, 'astray.jsonl');
    const wrong = { ...event, parent_span_id: 'f'.repeat(16) };
    writeFileSync(astray, `${[...lines.slice(0, -1), JSON.stringify(wrong)].join('\n')}\n`);
    expect((await validateTraceFile(astray)).problems).toMatchObject([
      { kind: 'unknown_parent', message: expect.stringContaining("not the run's") as unknown },
    ]);
  });

  it('is shown by replay after the runs, and never compared by a rerun', async () => {
    await recordFeedback(file, { run: runs[0]!, score: -1, comment: 'wrong order', by: 'ana' });
    const replay = await cli(['replay', file]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain(
      `Feedback\n  feedback -1 (thumbs down) · "wrong order" · by ana via code  on run ${runs[0]}`,
    );
    const json = JSON.parse((await cli(['replay', file, '--json'])).stdout) as {
      runs: unknown[];
      feedback: { run: string; score: number }[];
    };
    expect(json.runs).toHaveLength(2);
    expect(json.feedback).toMatchObject([{ run: runs[0], score: -1 }]);
    const rerun = await cli(['rerun', file, '--agent', desk]);
    expect(rerun.stdout).not.toMatch(/diverged/);
    expect(rerun.stdout.match(/✓ same behaviour/g)).toHaveLength(2);
    expect(rerun.code).toBe(0);
  });
});

describe('agent-trace feedback', () => {
  it('records from the command line, and says what is wrong with exit 2', async () => {
    const given = await cli(['feedback', file, '--run', runs[1]!, '--score', '1', '--by', 'bo']);
    expect(given.stderr).toBe('');
    expect(given.code).toBe(0);
    expect(given.stdout).toMatch(
      new RegExp(`^recorded feedback \\+1 \\(thumbs up\\) · by bo via cli on run ${runs[1]}`),
    );
    expect(await readFeedback(file)).toMatchObject([{ run: runs[1], score: 1, source: 'cli' }]);
    const missing = await cli(['feedback', file, '--run', 'run-nope', '--score', '1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("has no run 'run-nope'");
    const wordy = await cli(['feedback', file, '--run', runs[1]!, '--score', 'bad']);
    expect(wordy.code).toBe(2);
    expect(wordy.stderr).toContain('--score is a number');
    expect(await readFeedback(file)).toHaveLength(1);
  });
});

describe('feedback in the library', () => {
  it('is a view of its own, and regress --where selects exactly the runs marked', async () => {
    const library = join(folder, 'library');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(library);
    copyFileSync(file, join(library, 'desk.jsonl'));
    const kept = join(library, 'desk.jsonl');
    await recordFeedback(kept, { run: runs[1]!, score: -1, label: 'wrong', by: 'ana' });
    await recordFeedback(kept, { run: runs[0]!, score: 1 });
    const index = new TraceLibrary(library);
    await index.update();
    const { rows } = await index.query(
      'SELECT run, score, label, given_by, source, comment FROM feedback ORDER BY score',
    );
    expect(rows).toEqual([
      { run: runs[1], score: -1, label: 'wrong', given_by: 'ana', source: 'code', comment: null },
      { run: runs[0], score: 1, label: null, given_by: null, source: 'code', comment: null },
    ]);
    const counted = await index.query('SELECT count(*) AS n FROM runs');
    expect(Number(counted.rows[0]!.n)).toBe(2);
    const regress = await cli([
      'regress',
      library,
      '--no-store',
      '--agent',
      desk,
      '--where',
      'run IN (SELECT run FROM feedback WHERE score < 0)',
      '--json',
    ]);
    expect(regress.stderr).toBe('');
    const report = JSON.parse(regress.stdout) as { cases: { run: string }[] };
    expect(report.cases.map(each => each.run)).toEqual([runs[1]]);
  });
});

describe('feedback over OTLP', () => {
  it('is a gen_ai.evaluation.result named feedback on the judged span, from export and from code', async () => {
    const collector = await receiver();
    await recordFeedback(file, { run: runs[0]!, score: -1, comment: 'wrong order', by: 'ana' });
    const exported = await cli(['export', file, '--otlp', collector.url]);
    expect(exported.code).toBe(0);
    const [log] = await collector.waitForLogs(1);
    const judged = collector.spans.find(span => span.spanId === log!.spanId);
    expect(judged?.name).toBe('invoke_agent triage');
    expect(log!.eventName).toBe('gen_ai.evaluation.result');
    expect(log!.attributes).toMatchObject({
      'gen_ai.evaluation.name': 'feedback',
      'gen_ai.evaluation.score.value': -1,
      'gen_ai.evaluation.explanation': 'wrong order',
      'agent_trace.feedback.by': 'ana',
    });
    const sink = otlpSink({ endpoint: collector.url });
    await recordFeedback(file, { run: runs[1]!, label: 'slow' }, { export: sink });
    await sink.shutdown();
    const logs = await collector.waitForLogs(2);
    expect(logs[1]!.attributes).toMatchObject({
      'gen_ai.evaluation.name': 'feedback',
      'gen_ai.evaluation.score.label': 'slow',
    });
    expect(logs[1]!.attributes['gen_ai.evaluation.score.value']).toBeUndefined();
    await collector.close();
  });
});
