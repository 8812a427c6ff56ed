import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrace, validateTraceFile } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

/**
 * The Tiny Agent run as a person runs it: in a pseudo-terminal (util-linux `script`), typing
 * lines and pressing Ctrl-C.
 */
function startTinyAgent(trace: string) {
  const child = spawn(
    'script',
    [
      '-q',
      '-e',
      '-c',
      `node --import tsx examples/tiny-agent/main.ts --fake --trace ${trace}`,
      '/dev/null',
    ],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let screen = '';
  child.stdout.on('data', (data: Buffer) => (screen += data.toString('utf8')));
  child.stderr.on('data', (data: Buffer) => (screen += data.toString('utf8')));
  const exited = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)));
  return {
    type: (text: string) => child.stdin.write(text),
    screen: () => screen,
    exited,
  };
}

describe('the Tiny Agent in a terminal (--fake)', () => {
  it('streams answers and tool lines, stops an answer on Ctrl-C, exits on a second, and leaves a sealed trace', async () => {
    const trace = join(mkdtempSync(join(tmpdir(), 'agent-trace-tiny-')), 'tiny.jsonl');
    const tiny = startTinyAgent(trace);
    await expect.poll(tiny.screen, { timeout: 15_000 }).toContain('you> ');
    tiny.type('what is 12 * 7?\r');
    await expect
      .poll(tiny.screen, { timeout: 10_000 })
      .toContain('⚙ multiply {"a":12,"b":7} → "84"');
    await expect.poll(tiny.screen, { timeout: 10_000 }).toContain('The answer is 84.');
    tiny.type('hello\r');
    await expect.poll(tiny.screen, { timeout: 10_000 }).toContain('Ask me to add');
    tiny.type('\u0003'); // Ctrl-C while the answer streams
    await expect.poll(tiny.screen, { timeout: 10_000 }).toContain(' (stopped)');
    expect(tiny.screen()).not.toContain('so you can replay this conversation later');
    tiny.type('\u0003'); // Ctrl-C at the prompt
    expect(await tiny.exited).toBe(0);
    expect(tiny.screen()).toContain('bye');

    const report = await validateTraceFile(trace);
    expect(report.problems).toEqual([]);
    expect(report.runs.map(run => run.stopReason)).toEqual(['completed', 'aborted']);
    const tools = [];
    for await (const event of readTrace(trace))
      if (event.event === 'tool_start') tools.push([event.tool, event.mcp_server]);
    expect(tools).toEqual([['multiply', { name: 'math', transport: 'stdio' }]]);
  });
});
