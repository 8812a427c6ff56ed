/**
 * One cell of the library benchmark in a process of its own, reporting its time and peak RSS.
 * Usage: library-worker.ts index | floor | questions | scan <folder>
 *   index      updates the folder's index (from scratch or after an append)
 *   questions  asks the index the example questions, each timed
 *   floor      DuckDB alone loading the same files with its own JSON reader
 *   scan       answers the first question without an index: every file read and parsed
 */
import { TraceLibrary } from '@agent-trace/trace/library';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The questions of the trace library's guide, as SQL or as a run filter. */
export const questions: ReadonlyArray<readonly [string, string]> = [
  [
    'runs that called refund and then failed',
    `SELECT DISTINCT r.run FROM runs r JOIN tool_calls t ON t.run = r.run AND t.file = r.file
     WHERE t.tool = 'refund' AND r.stop_reason <> 'completed'`,
  ],
  [
    'the 20 most expensive runs this week',
    `SELECT run, cost_usd FROM runs WHERE started_at > TIMESTAMP '2026-11-01' - INTERVAL 7 DAY
     ORDER BY cost_usd DESC LIMIT 20`,
  ],
  [
    'runs where triage handed off to billing more than twice',
    `SELECT run, count(*) AS times FROM handoffs WHERE from_agent = 'triage' AND to_agent = 'billing'
     GROUP BY run HAVING count(*) > 2`,
  ],
  ['runs --tool refund --stop failed --sort cost', 'filter'],
  ['runs --text "payment provider refused"', 'text'],
];

const [cell, folder] = process.argv.slice(2) as [string, string];
const started = performance.now();
let result: object;
if (cell === 'index') {
  const update = await new TraceLibrary(folder).update();
  result = { ...update, milliseconds: performance.now() - started };
} else if (cell === 'questions') {
  const library = new TraceLibrary(folder);
  const answers = [];
  for (const [question, sql] of questions) {
    const asked = performance.now();
    const { rows } =
      sql === 'filter'
        ? await library.runs({ tool: 'refund', stop: 'failed', sort: 'cost' })
        : sql === 'text'
          ? await library.runs({ text: 'payment provider refused' })
          : await library.query(sql);
    answers.push({ question, rows: rows.length, milliseconds: performance.now() - asked });
  }
  result = { answers };
} else if (cell === 'floor') {
  // DuckDB alone: its own newline-delimited JSON reader loading the same files into a table on
  // disk, with the same fields parsed (but no byte offsets, no incremental reading).
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const file = join(folder, '.floor.duckdb');
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  await connection.run(`SET memory_limit = '512MB'`);
  await connection.run(
    `CREATE TABLE events AS SELECT * FROM read_ndjson('${join(folder, '*.jsonl')}', columns = {
      run: 'VARCHAR', seq: 'INTEGER', event: 'VARCHAR', time: 'VARCHAR', agent: 'VARCHAR',
      span_id: 'VARCHAR', parent_span_id: 'VARCHAR', tool: 'VARCHAR', model: 'VARCHAR',
      stop_reason: 'VARCHAR', duration_ms: 'DOUBLE', tok_prompt: 'BIGINT', tok_completion: 'BIGINT',
      cost_usd: 'DOUBLE', input: 'JSON', output: 'JSON', args: 'JSON', result: 'JSON', text: 'VARCHAR'})`,
  );
  const reader = await connection.runAndReadAll('SELECT count(*) AS events FROM events');
  result = {
    events: Number(reader.getRowObjectsJson()[0]!.events),
    milliseconds: performance.now() - started,
  };
  connection.closeSync();
  instance.closeSync();
  rmSync(file, { force: true });
} else {
  // Without an index: read every file, parse every line, keep the runs that called refund and
  // the runs that did not complete.
  const refund = new Set<string>();
  const failed = new Set<string>();
  let events = 0;
  for (const name of readdirSync(folder).filter(each => each.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(folder, name), 'utf8').split('\n')) {
      if (line === '') continue;
      const event = JSON.parse(line) as {
        run: string;
        event: string;
        tool?: string;
        stop_reason?: string;
      };
      events++;
      if (event.event === 'tool_start' && event.tool === 'refund') refund.add(event.run);
      if (event.event === 'run_end' && event.stop_reason !== 'completed') failed.add(event.run);
    }
  }
  const rows = [...refund].filter(run => failed.has(run)).length;
  result = { rows, events, milliseconds: performance.now() - started };
}
process.stdout.write(
  `${JSON.stringify({ ...result, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
