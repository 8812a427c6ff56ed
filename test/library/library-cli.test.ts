/**
 * `agent-trace index`, `query` and `runs` on a folder of traces, and an index that survives a
 * process killed in the middle of an update.
 */
import { TraceLibrary } from '@agent-trace/trace/library';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { writeDeskFolder, type DeskRun } from '../support/trace-folder.js';

let folder: string;
let runs: Record<DeskRun, string[]>;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'agent-trace-library-cli-'));
  runs = await writeDeskFolder(folder, 3, 3);
});

describe('agent-trace index, query and runs', () => {
  it('indexes a folder and says what it read; a second index reads nothing', async () => {
    const first = await cli(['index', folder]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^3 trace files, 3 read \(\d+\.\d MB, 156 events\) in \d+\.\d s; the index is .*index\.duckdb/,
    );
    const again = await cli(['index', folder]);
    expect(again.stdout).toMatch(/^3 trace files, 0 read \(0\.0 MB, 0 events\)/);
  });

  it('answers SQL as a table, JSON lines or CSV; a bad query exits 2 naming the views', async () => {
    const sql = 'SELECT tool, count(*) AS calls FROM tool_calls GROUP BY tool ORDER BY tool';
    const table = await cli(['query', sql, '--dir', folder]);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n').slice(0, 3)).toEqual([
      'tool    calls',
      'lookup      6',
      'refund     12',
    ]);
    const json = await cli(['query', sql, '--dir', folder, '--json']);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map(line => JSON.parse(line) as unknown),
    ).toEqual([
      { tool: 'lookup', calls: 6 },
      { tool: 'refund', calls: 12 },
    ]);
    const csv = await cli([
      'query',
      'SELECT run, input FROM runs ORDER BY run LIMIT 1',
      '--dir',
      folder,
      '--csv',
    ]);
    expect(csv.stdout).toBe(
      `run,input\n${runs.refunded[0]},"Refund order A-1, it arrived broken."\n`,
    );
    const bad = await cli(['query', 'SELECT nope FROM runs', '--dir', folder]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('The query failed');
    expect(bad.stderr).toContain('runs, agents, llm_calls, tool_calls, handoffs, events');
  });

  it('lists runs by the ready-made questions', async () => {
    const failed = await cli([
      'runs',
      '--dir',
      folder,
      '--tool',
      'refund',
      '--stop',
      'failed',
      '--sort',
      'cost',
    ]);
    expect(failed.code).toBe(0);
    const lines = failed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^run\s+started_at\s+entry_agent\s+stop_reason\s+duration_ms\s+tokens\s+cost_usd\s+file$/,
    );
    expect(
      lines
        .slice(1, -1)
        .map(line => line.split(/\s+/)[0])
        .sort(),
    ).toEqual(runs.refund_fails);
    expect(lines.at(-1)).toBe('3 runs');
    expect(lines[1]).toContain('tool_failure_degraded');
    const json = await cli(['runs', '--dir', folder, '--text', 'two days', '--json']);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map(line => (JSON.parse(line) as { run: string }).run)
        .sort(),
    ).toEqual(runs.answered);
    const bad = await cli(['runs', '--dir', folder, '--since', 'last week']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Invalid --since 'last week'");
    const missing = await cli(['runs', '--dir', join(folder, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No folder');
  });
});

describe('the index, killed in the middle of an update', () => {
  it('is consistent when reopened, and the next update catches up to a whole index', async () => {
    const big = mkdtempSync(join(tmpdir(), 'agent-trace-library-kill-'));
    await writeDeskFolder(big, 40, 10);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/fixtures/library-indexer.ts', big],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>(resolve =>
      child.stdout.on('data', (data: Buffer) => data.toString().includes('batch') && resolve()),
    );
    child.kill('SIGKILL');
    await new Promise(resolve => child.on('exit', resolve));
    const library = new TraceLibrary(big);
    const consistent = async () => {
      const { rows } = await library.query(
        `SELECT (SELECT count(*) FROM trace_events) AS events,
           (SELECT count(*) FROM (SELECT DISTINCT file_id, "offset" FROM trace_events)) AS distinct_events,
           (SELECT count(*) FROM trace_files) AS files,
           (SELECT count(*) FROM trace_events WHERE file_id NOT IN (SELECT file_id FROM trace_files)) AS orphans,
           (SELECT count(*) FROM trace_events e JOIN trace_files f USING (file_id) WHERE e."offset" >= f.indexed_bytes) AS beyond`,
      );
      return rows[0]!;
    };
    const killed = await consistent();
    expect(killed.events).toBe(killed.distinct_events);
    expect(killed).toMatchObject({ orphans: 0, beyond: 0 });
    expect(Number(killed.files)).toBeLessThan(40);
    // The files it had not wholly committed are read now, from where it stopped; the others not.
    const indexed = new Map((await library.files()).map(file => [file.path, file.indexedBytes]));
    const unfinished = readdirSync(big).filter(
      name => name.endsWith('.jsonl') && indexed.get(name) !== statSync(join(big, name)).size,
    );
    const update = await library.update();
    expect(update.read).toBe(unfinished.length);
    const lines = readdirSync(big)
      .filter(name => name.endsWith('.jsonl'))
      .reduce((sum, name) => sum + readFileSync(join(big, name), 'utf8').split('\n').length - 1, 0);
    const whole = await consistent();
    expect(whole).toMatchObject({ events: lines, distinct_events: lines, files: 40, orphans: 0 });
    expect((await library.query('SELECT count(*) AS n FROM runs')).rows[0]!.n).toBe(400);
  });
});
