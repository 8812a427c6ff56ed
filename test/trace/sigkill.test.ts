import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrace, validateTraceFile, type TornTail } from '@agent-trace/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const directory = mkdtempSync(join(tmpdir(), 'agent-trace-sigkill-'));

/** Starts the endless writer, waits until it writes, kills it with SIGKILL after `delayMs`. */
async function writeThenKill(path: string, delayMs: number): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/fixtures/endless-runs.ts', path],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>(resolve =>
    child.stdout.on('data', (data: Buffer) => data.toString().includes('writing') && resolve()),
  );
  await new Promise(resolve => setTimeout(resolve, delayMs));
  const exited = new Promise(resolve => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** The complete lines of a file (everything up to its last newline). */
function completeLines(path: string): string {
  const text = readFileSync(path, 'utf8');
  return text.slice(0, text.lastIndexOf('\n') + 1);
}

describe('a trace written by a process killed with SIGKILL', () => {
  it('always reads up to its last complete line, validate explains it, and the next run appended loses nothing', async () => {
    const path = join(directory, 'killed.jsonl');
    const delays = fc.sample(fc.integer({ min: 0, max: 120 }), { numRuns: 12, seed: 2026 });
    let kept = '';
    for (const delayMs of delays) {
      await writeThenKill(path, delayMs);
      // Every complete line written before this kill, and before the earlier ones, is still there.
      const now = completeLines(path);
      expect(now.startsWith(kept)).toBe(true);
      kept = now;
      const tails: TornTail[] = [];
      let events = 0;
      const unsealed = new Set<string>();
      for await (const event of readTrace(path, { onTornTail: tail => tails.push(tail) })) {
        expect(event.v).toBe(1);
        events++;
        if (event.event === 'run_start') unsealed.add(event.run);
        if (event.event === 'run_end') unsealed.delete(event.run);
      }
      expect(events).toBe(now.split('\n').length - 1);
      const report = await validateTraceFile(path);
      // A run the kill cut short has no seal: validate says so (and names a torn tail when there
      // is one). A kill can also land between two runs, or before the first write.
      expect(report.problems.some(problem => problem.kind === 'missing_run_end')).toBe(
        unsealed.size > 0,
      );
      expect(
        report.problems.every(problem =>
          ['missing_run_end', 'unpaired_start', 'torn_tail'].includes(problem.kind),
        ),
      ).toBe(true);
      expect(report.problems.some(problem => problem.kind === 'torn_tail')).toBe(tails.length > 0);
    }
    const final = await validateTraceFile(path);
    expect(final.problems.some(problem => problem.kind === 'missing_run_end')).toBe(true);
    const runs = final.runs;
    expect(runs.length).toBeGreaterThan(delays.length);
    expect(runs.filter(run => run.stopReason === 'completed').length).toBeGreaterThan(0);
  }, 60_000);
});
