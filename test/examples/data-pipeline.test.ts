import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { validateTraceFile } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const exec = promisify(execFile);
const pipeline = (...args: string[]) =>
  exec(process.execPath, ['--import', 'tsx', 'examples/data-pipeline/main.ts', ...args], {
    env: { ...process.env, NO_COLOR: '1', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
  });
const folder = mkdtempSync(join(tmpdir(), 'agent-trace-pipeline-'));

describe('the data pipeline example, as a process', () => {
  it('runs workflow.yaml on sales.csv: the report, the replay, a valid trace that reruns the same', async () => {
    const trace = join(folder, 'pipeline.jsonl');
    const { stdout } = await pipeline('--trace', trace);
    expect(stdout).toContain('Sales by region\n1. north: 790 over 2 weeks (mean 395, best 410)');
    // sales.csv's missing and negative amounts were dropped by the cleaning step.
    expect(stdout).toContain('4. east: 300 over 1 week');
    // parallel: true (may run beside others) is no fan-out: the regions are analysed together.
    expect(stdout).toMatch(/step 分析 +tool analyzer +completed/);
    const report = await validateTraceFile(trace);
    expect(report.problems).toEqual([]);
    const rerun = await cli(['rerun', trace, '--agent', 'examples/data-pipeline/pipeline.ts']);
    expect(rerun.stdout).toContain('same behaviour: no divergence');
    expect(rerun.code).toBe(0);
  });

  it('plans with a FakeLLM planner: the first plan fails, the second completes', async () => {
    const trace = join(folder, 'plan.jsonl');
    const { stdout } = await pipeline('plan', '--trace', trace);
    expect(stdout).toContain('plan 1 (request): accepted, failed');
    expect(stdout).toContain('plan 2 (step_failed): accepted, completed');
    expect(stdout).toContain('there is no sales-2026.csv in the data folder');
    // The planned analysis runs once per region (for_each), all at once.
    expect(stdout).toContain('step analyse  tool region_analyzer  4 items at once  completed');
    expect((await validateTraceFile(trace)).runs[0]?.stopReason).toBe('completed');
  });

  it('plan --live without an API key exits 2 and says what to do', async () => {
    const failed = await pipeline('plan', '--live').catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in failed && failed.code).toBe(2);
    expect('stderr' in failed && failed.stderr).toContain(
      'needs OPENAI_API_KEY or ANTHROPIC_API_KEY',
    );
  });
});
