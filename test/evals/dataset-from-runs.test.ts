/**
 * Datasets grown from recorded runs: from a library of 2,000 runs, `dataset add --where` writes
 * exactly the cases the same SQL counts, each with its lineage; adding the same runs again adds
 * none; `dataset diff` shows what changed between versions; and an eval over the dataset names
 * each failing case with the run it came from.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  belowThreshold,
  defineEval,
  exactMatch,
  readDataset,
  runEval,
  trajectoryMatch,
  type DatasetCase,
} from '@agent-trace/evals';
import { recordFeedback } from '@agent-trace/trace';
import { TraceLibrary } from '@agent-trace/trace/library';
import { beforeAll, describe, expect, it } from 'vitest';
import { deskRunLines, type DeskRun } from '../support/trace-folder.js';
import { cli } from '../support/cli.js';

const kinds: DeskRun[] = ['refunded', 'refund_fails', 'answered'];

/** Copies of the desk's runs, each under its own id, time and input (`… (#n)`). */
function copies(lines: readonly string[], n: number): string {
  return lines
    .map(line => {
      const event = JSON.parse(line) as Record<string, unknown>;
      event.run = `run-${String(n).padStart(5, '0')}`;
      event.session = event.run;
      event.time = new Date(Date.parse(String(event.time)) + n * 60_000).toISOString();
      if (event.event === 'run_start') {
        event.input = `${String(event.input)} (#${n})`;
        // The app's release the run was made by, as `run(…, { release })` writes it.
        event.release = `commit-${n % 4}`;
      }
      return `${JSON.stringify(event)}\n`;
    })
    .join('');
}

let work = '';
let traces = '';
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'dataset-from-runs-'));
  traces = join(work, 'traces');
  mkdirSync(traces);
  const lines = Object.fromEntries(
    await Promise.all(kinds.map(async kind => [kind, await deskRunLines(kind)] as const)),
  ) as Record<DeskRun, string[]>;
  for (let file = 0; file < 4; file++) {
    let text = '';
    for (let index = 0; index < 500; index++) {
      const n = file * 500 + index;
      text += copies(lines[kinds[n % 3]!], n);
    }
    writeFileSync(join(traces, `desk-${file}.jsonl`), text);
  }
  await recordFeedback(join(traces, 'desk-1.jsonl'), { run: 'run-00501', score: -1 });
  await recordFeedback(join(traces, 'desk-3.jsonl'), { run: 'run-01999', score: -1 });
}, 60_000);

const where = "stop_reason <> 'completed' AND input LIKE '%7)'";

describe('dataset add from a library of 2,000 runs', () => {
  it('writes exactly the cases the SQL counts, each with its lineage; again, none', async () => {
    const library = new TraceLibrary(traces);
    await library.update();
    const { rows } = await library.query(`SELECT run FROM runs WHERE ${where} ORDER BY run`);
    await library.settled();
    expect(
      Number((await new TraceLibrary(traces).query('SELECT count(*) AS n FROM runs')).rows[0]!.n),
    ).toBe(2000);
    const byRelease = await new TraceLibrary(traces).query(
      "SELECT count(*) AS n FROM runs WHERE release = 'commit-1'",
    );
    expect(Number(byRelease.rows[0]!.n)).toBe(500);
    expect(rows.length).toBeGreaterThan(50);
    const file = join(work, 'evals', 'desk.jsonl');
    const first = await cli(['dataset', 'add', file, '--from', traces, '--where', where]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `${rows.length} runs picked, ${rows.length} added, 0 already in it`,
    );
    const cases = readDataset(file).cases as unknown as DatasetCase[];
    expect(cases.map(each => each.metadata.source.run).sort()).toEqual(rows.map(row => row.run));
    const one = cases[0]!;
    expect(one.id).toBe(one.metadata.source.run);
    expect(one.input).toMatch(/^Refund order A-1, it arrived broken\. \(#\d*7\)$/);
    // A refund that fails: billing tries it until its step limit.
    expect(one.expected.trajectory).toEqual([
      { handoff: 'billing' },
      { tool: 'lookup', args: { order: 'A-1' } },
      ...Array.from({ length: 3 }, () => ({ tool: 'refund', args: { order: 'A-1' } })),
    ]);
    const { trace, offset } = one.metadata.source;
    const line = readFileSync(join(work, 'evals', trace), 'utf8')
      .slice(offset)
      .split('\n')[0]!;
    expect(JSON.parse(line)).toMatchObject({ event: 'run_start', run: one.id });
    for (const each of cases)
      expect(each.metadata.source.release).toBe(`commit-${Number(each.id.slice(4)) % 4}`);
    const again = await cli(['dataset', 'add', file, '--from', traces, '--where', where]);
    expect(again.stdout).toContain(`0 added, ${rows.length} already in it`);
    expect(again.stdout).toContain('(unchanged)');
    expect(readDataset(file).cases).toHaveLength(rows.length);
  }, 60_000);

  it('selects by feedback, keeps versions, and diffs them', async () => {
    const file = join(work, 'evals', 'marked.jsonl');
    const marked = 'run IN (SELECT run FROM feedback WHERE score < 0)';
    const added = await cli([
      'dataset',
      'add',
      file,
      '--from',
      traces,
      '--where',
      marked,
      '--json',
    ]);
    expect(JSON.parse(added.stdout)).toMatchObject({ added: ['run-00501', 'run-01999'] });
    const v1 = readDataset(file).version;
    // A person edits what run-00501 should have done.
    const edited = readFileSync(file, 'utf8').replace(
      '"output":"Order A-1 is refunded."',
      '"output":"Order A-1 is refunded in full."',
    );
    writeFileSync(file, edited);
    await cli(['dataset', 'add', file, '--from', traces, '--run', 'run-00003']);
    const v3 = readDataset(file).version;
    const last = await cli(['dataset', 'diff', file]);
    expect(last.stdout).toMatch(/: 1 added, 0 removed, 0 changed, 2 the same\n\+ run-00003 /);
    const whole = await cli(['dataset', 'diff', `${file}@${v1.slice(0, 6)}`, `${file}@${v3}`]);
    expect(whole.code).toBe(0);
    expect(whole.stdout).toContain('1 added, 0 removed, 1 changed, 1 the same');
    expect(whole.stdout).toContain('~ run-00501: expected changed');
    const missing = await cli(['dataset', 'diff', `${file}@ffffff`, file]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such version');
    const shown = await cli(['dataset', 'show', file]);
    expect(shown.stdout).toContain(`@ ${v3}: 3 cases, 3 made of recorded runs`);
    expect(shown.stdout).toContain('from run run-00501 in ../traces/desk-1.jsonl');
    const listed = await cli(['dataset', 'list', work]);
    expect(listed.stdout).toMatch(
      /marked\.jsonl {2}3 cases {2}version \w{12} {2}\d+ versions kept/,
    );
    expect(existsSync(join(work, 'evals', '.datasets', 'marked.jsonl', 'log.jsonl'))).toBe(true);
  }, 60_000);

  it('says what is wrong with SQL the library refuses and a run it does not hold', async () => {
    const file = join(work, 'evals', 'wrong.jsonl');
    const bad = await cli(['dataset', 'add', file, '--from', traces, '--where', 'nope >']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--where "nope >" is not SQL the library takes/);
    const unknown = await cli(['dataset', 'add', file, '--from', traces, '--run', 'run-x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No ended run run-x in the library');
    expect(existsSync(file)).toBe(false);
  }, 60_000);
});

describe('an eval over a dataset made of runs', () => {
  it('runs its cases and names each failing one with the run it came from', async () => {
    const file = join(work, 'evals', 'answers.jsonl');
    await cli([
      'dataset',
      'add',
      file,
      '--from',
      traces,
      '--where',
      "stop_reason = 'completed' AND input LIKE '%(#1_)'",
    ]);
    const definition = defineEval<string, { output: string }>({
      name: 'answers',
      data: file,
      // Today's desk answers refunds differently than the recorded one.
      task: input =>
        input.startsWith('When') ? 'We ship within two days.' : 'A refund is on its way.',
      scorers: [exactMatch(), trajectoryMatch()],
    });
    const result = await runEval(definition);
    expect(result.cases).toHaveLength(6);
    const failing = result.cases.filter(each => each.scores.exact?.score === 0);
    expect(failing.length).toBeGreaterThan(0);
    const said = belowThreshold(result, 'exact', 1)!;
    for (const each of failing) {
      const trace = relative(process.cwd(), join(traces, `desk-0.jsonl`));
      expect(each.source).toMatchObject({ run: each.id, trace });
      expect(said).toMatch(
        new RegExp(
          `from run ${each.id} \\([^)]*, release commit-${Number(each.id.slice(4)) % 4}\\)`,
        ),
      );
      expect(said).toContain(`agent-trace replay ${trace} --run ${each.id}`);
    }
  }, 60_000);
});
