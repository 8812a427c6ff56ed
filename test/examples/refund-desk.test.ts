import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readTrace, validateTraceFile } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const desk = (...args: string[]) =>
  exec(process.execPath, ['--import', 'tsx', 'examples/refund-desk/main.ts', ...args], {
    env: { ...process.env, NO_COLOR: '1' },
  });

/** The first process: runs the desk until the refund waits, into a fresh folder. */
async function start() {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-refund-'));
  const [state, trace] = [join(folder, 'state.json'), join(folder, 'desk.jsonl')];
  const started = await desk('start', '--state', state, '--trace', trace);
  return { state, trace, started };
}

describe('the refund desk, paused in one process and resumed in another', () => {
  it('approved: the refund runs, and the combined trace validates as one run', async () => {
    const { state, trace, started } = await start();
    expect(started.stdout).toContain(
      'waiting for approval: refund {"order":42,"amount":120.5} (call refund_42)',
    );
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({
      format: 'agent-trace/run-state',
      turn: { pending: [{ callId: 'refund_42' }] },
    });
    const resumed = await desk(
      'resume',
      '--state',
      state,
      '--trace',
      trace,
      '--approve',
      '--by',
      'ana',
    );
    expect(resumed.stdout).toContain(
      'completed: Refunded 120.5 on order 42 (reference RF-42-120.5).',
    );

    const report = await validateTraceFile(trace);
    expect(report.problems).toEqual([]);
    expect(report.runs).toHaveLength(1);
    expect(report.runs[0]?.stopReason).toBe('completed');
    const kinds: string[] = [];
    for await (const event of readTrace(trace))
      if (/^(approval_|run_)/.test(event.event)) kinds.push(event.event);
    expect(kinds).toEqual([
      'run_start',
      'approval_requested',
      'run_end',
      'run_start',
      'approval_resolved',
      'run_end',
    ]);
  });

  it('rejected: the model offers something else', async () => {
    const { state, trace } = await start();
    const resumed = await desk(
      'resume',
      '--state',
      state,
      '--trace',
      trace,
      '--reject',
      'too much',
    );
    expect(resumed.stdout).toContain('completed: A manager declined the full refund');
    expect((await validateTraceFile(trace)).problems).toEqual([]);
  });

  it('resumed twice: the second is refused, naming the run; the refund ran once; --fork goes on as a new run', async () => {
    const { state, trace } = await start();
    await desk('resume', '--state', state, '--trace', trace, '--approve');
    const again = await desk('resume', '--state', state, '--trace', trace, '--approve').catch(
      (error: { code: number; stderr: string }) => error,
    );
    const { run } = JSON.parse(readFileSync(state, 'utf8')) as { run: { id: string } };
    expect(again).toMatchObject({ code: 2 });
    expect((again as { stderr: string }).stderr).toContain(
      `The state of run ${run.id} paused at seq`,
    );
    expect((again as { stderr: string }).stderr).toContain('was already resumed at');
    const refunds = async () => {
      let count = 0;
      for await (const event of readTrace(trace))
        if (event.event === 'tool_end' && event.tool === 'refund') count++;
      return count;
    };
    expect(await refunds()).toBe(1);
    let report = await validateTraceFile(trace);
    expect(report.problems).toEqual([]);
    expect(report.runs).toHaveLength(1);

    const forked = await desk(
      'resume',
      '--state',
      state,
      '--trace',
      trace,
      '--reject',
      'no',
      '--fork',
    );
    expect(forked.stdout).toContain('completed: A manager declined the full refund');
    report = await validateTraceFile(trace);
    expect(report.problems).toEqual([]);
    expect(report.runs).toHaveLength(2);
    expect(await refunds()).toBe(1);
  });

  it('a state edited by hand is refused, saying so', async () => {
    const { state, trace } = await start();
    writeFileSync(state, readFileSync(state, 'utf8').replace('120.5', '12.5'));
    const failed = await desk('resume', '--state', state, '--trace', trace, '--approve').catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain(
      'The run state was changed after it was made',
    );
  });
});
