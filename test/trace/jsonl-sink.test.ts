import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, readTrace, validateTraceFile } from '@agent-trace/trace';
import { describe, expect, it, vi } from 'vitest';

const directory = mkdtempSync(join(tmpdir(), 'agent-trace-sink-'));
const say = (text: string) => agent({ name: 'a', model: fakeLLM([{ text }]) });

async function events(path: string) {
  const list = [];
  for await (const event of readTrace(path)) list.push(event);
  return list;
}

describe('jsonlSink', () => {
  it('has every event on disk when the run returns, one JSON object per line', async () => {
    const path = join(directory, 'nested', 'dirs', 'run.jsonl');
    const sink = jsonlSink(path, { flushIntervalMs: 60_000 });
    await run(say('hi'), 'go', { trace: sink });
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text
        .trimEnd()
        .split('\n')
        .map(line => (JSON.parse(line) as { event: string }).event),
    ).toEqual(['run_start', 'agent_start', 'llm_start', 'llm_end', 'agent_end', 'run_end']);
    await sink.close();
  });

  it('appends runs to the same file, each sealed', async () => {
    const path = join(directory, 'two-runs.jsonl');
    const sink = jsonlSink(path);
    await run(say('one'), 'go', { trace: sink });
    await sink.close();
    await run(say('two'), 'go', { trace: jsonlSink(path) });
    const report = await validateTraceFile(path);
    expect(report.valid).toBe(true);
    expect(report.runs).toHaveLength(2);
  });

  it('cuts off a torn last line before appending, so the file stays readable', async () => {
    const path = join(directory, 'repair.jsonl');
    const first = jsonlSink(path);
    await run(say('one'), 'go', { trace: first });
    await first.close();
    const intact = readFileSync(path, 'utf8');
    writeFileSync(path, `${intact}{"v":1,"seq":0,"ti`);
    const repairs: number[] = [];
    const second = jsonlSink(path, { onRepair: info => repairs.push(info.removedBytes) });
    await run(say('two'), 'go', { trace: second });
    await second.close();

    expect(repairs).toEqual([18]);
    expect(readFileSync(path, 'utf8').startsWith(intact)).toBe(true);
    const report = await validateTraceFile(path);
    expect(report.problems).toEqual([]);
    expect(report.runs).toHaveLength(2);
  });

  it('fails at creation with a clear error when the path cannot be written', () => {
    const locked = join(directory, 'locked');
    mkdirSync(locked);
    expect(() => jsonlSink(locked)).toThrow(
      /^Cannot open for writing trace file '.*locked': EISDIR.*The path is a directory; give a file name such as traces\/run\.jsonl\.$/,
    );
    if (process.getuid?.() !== 0) {
      chmodSync(locked, 0o500);
      expect(() => jsonlSink(join(locked, 'run.jsonl'))).toThrow(/EACCES/);
    }
  });

  const runStart = (run: string) =>
    ({
      v: 1,
      seq: 0,
      time: new Date(0).toISOString(),
      run,
      session: run,
      trace_id: '0'.repeat(32),
      span_id: '0'.repeat(15) + '1',
      parent_span_id: null,
      agent: 'a',
      event: 'run_start',
      input: 'x',
    }) as const;

  it('without the writer thread, writes whole lines as soon as the buffer is full', async () => {
    const path = join(directory, 'buffered.jsonl');
    const sink = jsonlSink(path, {
      flushBytes: 1,
      flushIntervalMs: 60_000,
      writeInBackground: false,
    });
    sink.write(runStart('r'));
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(2);
    await sink.close();
  });

  it('hands full buffers to the writer thread, which writes them in order; flush waits for it', async () => {
    const path = join(directory, 'background.jsonl');
    const sink = jsonlSink(path, { flushBytes: 1, flushIntervalMs: 60_000 });
    sink.write(runStart('r0'));
    // The thread writes the full buffer with no flush from here.
    await vi.waitFor(() => expect(readFileSync(path, 'utf8')).toContain('"r0"'), {
      timeout: 10_000,
    });
    const runs = Array.from({ length: 500 }, (_, index) => `r${index + 1}`);
    for (const run of runs) sink.write(runStart(run));
    await sink.flush();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines.map(line => (JSON.parse(line) as { run: string }).run)).toEqual(['r0', ...runs]);
    await sink.close();
  });

  for (const [how, args, expectedCode] of [
    ['SIGTERM', [], null],
    ['process.exit in the middle of the run', ['exit'], 3],
  ] as const) {
    it(`closes and seals a run interrupted by ${how}`, async () => {
      const path = join(directory, `interrupted-${expectedCode ?? 'signal'}.jsonl`);
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'test/fixtures/hanging-run.ts', path, ...args],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      await new Promise<void>(resolve =>
        child.stdout.on('data', (data: Buffer) => data.toString().includes('ready') && resolve()),
      );
      if (expectedCode === null) child.kill('SIGTERM');
      const [code, signal] = await new Promise<[number | null, string | null]>(resolve =>
        child.on('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
      );
      expect(expectedCode === null ? signal : code).toBe(expectedCode ?? 'SIGTERM');

      const report = await validateTraceFile(path);
      expect(report.problems).toEqual([]);
      const list = await events(path);
      expect(list.map(event => event.event)).toEqual([
        'run_start',
        'agent_start',
        'llm_start',
        'llm_end',
        'tool_start',
        'tool_end',
        'agent_end',
        'run_end',
      ]);
      expect(list.at(-1)).toMatchObject({ stop_reason: 'aborted', error: { type: 'aborted' } });
    });
  }

  it('at process.exit with the writer thread busy, has every event once, in order, and seals the run', async () => {
    const path = join(directory, 'busy-exit.jsonl');
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/busy-exit.ts', path], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const code = await new Promise(resolve => child.on('exit', resolve));
    expect(code).toBe(3);
    expect((await validateTraceFile(path)).problems).toEqual([]);
    const list = await events(path);
    expect(list.map(event => event.seq)).toEqual(list.map((_, index) => index));
    // 300 echo calls, then the quitting call, closed by the seal.
    const ends = list.filter(event => event.event === 'tool_end');
    expect(ends.filter(event => event.tool === 'echo')).toHaveLength(300);
    expect(ends.at(-1)).toMatchObject({ tool: 'quit', error: { type: 'aborted' } });
    expect(list.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'aborted' });
  });

  it('closes an interrupted workflow, counting the steps that had ended', async () => {
    const path = join(directory, 'interrupted-workflow.jsonl');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/fixtures/hanging-run.ts', path, 'workflow'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>(resolve =>
      child.stdout.on('data', (data: Buffer) => data.toString().includes('ready') && resolve()),
    );
    child.kill('SIGTERM');
    await new Promise(resolve => child.on('exit', resolve));
    expect((await validateTraceFile(path)).problems).toEqual([]);
    const list = await events(path);
    // The hanging step's events are held until it ends (steps commit in order): they are lost.
    expect(list.slice(-3)).toMatchObject([
      { event: 'workflow_step_end', name: 'fetch', status: 'completed' },
      {
        event: 'workflow_end',
        status: 'aborted',
        steps: { completed: 1, failed: 0, skipped: 0 },
      },
      { event: 'run_end', stop_reason: 'aborted' },
    ]);
  });
});
