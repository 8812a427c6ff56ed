// A trace with one line of 50 MB (a tool's result): replay, rerun and regress read it in memory
// bounded by a small multiple of the line, and the library indexes it (DuckDB does not parse the
// whole line: its long strings are cut in the index, the file keeps them whole).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import { TraceLibrary } from '@agent-trace/trace/library';
import { beforeAll, describe, expect, it } from 'vitest';
import { dumpDesk, dumpModel } from '../fixtures/agents/dump-desk.js';

const module = 'test/fixtures/agents/dump-desk.ts';
let folder = '';
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'agent-trace-long-line-'));
  const sink = jsonlSink(join(folder, 'dump.jsonl'));
  await run(dumpDesk(dumpModel()), 'Dump the log', { trace: sink });
  await sink.close();
}, 60_000);

/** The CLI in a process of its own: its exit code and the process's peak resident memory. */
function peak(args: string[]): { code: number; peakMb: number } {
  const printed = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'test/fixtures/cli-peak-memory.ts', ...args],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(printed) as { code: number; peakMb: number };
}

describe('a trace with a line of 50 MB', () => {
  // The process alone (Node, tsx, the CLI) holds about 120 MB; the line is 50 MB.
  const mostMb = 720;

  it.each([
    ['replay', () => ['replay', join(folder, 'dump.jsonl')]],
    ['rerun', () => ['rerun', join(folder, 'dump.jsonl'), '--agent', module]],
    ['regress', () => ['regress', folder, '--agent', module, '--no-store']],
  ])(
    '%s runs in bounded memory',
    (_name, args) => {
      const { code, peakMb } = peak(args());
      expect(code).toBe(0);
      expect(peakMb).toBeLessThan(mostMb);
    },
    60_000,
  );

  it('is indexed with its long string cut, its place and length whole', async () => {
    const library = new TraceLibrary(folder);
    await library.update();
    const { rows } = await library.query(
      'SELECT length(result) AS kept, length FROM tool_calls JOIN events USING (run, "offset") WHERE tool = \'dump\'',
    );
    expect(rows).toEqual([{ kept: 65_537, length: expect.any(Number) }]);
    expect(Number(rows[0]!.length)).toBeGreaterThan(50_000_000);
    expect(await library.problems()).toEqual([]);
  }, 60_000);
});
