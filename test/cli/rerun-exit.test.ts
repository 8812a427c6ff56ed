/**
 * `agent-trace rerun` ends after its report, whatever the agent module left open: its MCP
 * connections are closed, and a socket or a child process it started no longer holds the process.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcp } from '@agent-trace/core/mcp';
import { afterAll, describe, expect, it } from 'vitest';
import { recordRun } from '../conformance/harness/plant.js';
import { agentTraceProcess } from '../conformance/harness/cli-process.js';
import { mcpDesk, stdioConfig } from '../conformance/shapes/mcp-desk.js';

const folder = mkdtempSync(join(tmpdir(), 'agent-trace-rerun-exit-'));
const pids = join(folder, 'pids');

afterAll(() => {
  if (!existsSync(pids)) return;
  for (const pid of readFileSync(pids, 'utf8').split('\n').filter(Boolean)) {
    try {
      process.kill(Number(pid));
    } catch {
      // Already gone.
    }
  }
});

describe('agent-trace rerun with a module that holds the process', () => {
  it('prints its report, then ends by itself, saying what held it', async () => {
    const file = join(folder, 'archive.jsonl');
    const live = await connectMcp(stdioConfig());
    await recordRun(file, mcpDesk(live.tools), 'Paris, the archive, and 2 + 3?');
    await live.close();
    process.env.AGENT_TRACE_HOLDING_PIDS = pids;
    const done = await agentTraceProcess(
      ['rerun', file, '--agent', 'test/fixtures/agents/holding-desk.ts'],
      20_000,
    );
    expect(done.killed, `killed after ${Math.round(done.ms)} ms`).toBe(false);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('✓ same behaviour');
    // The socket and the child process are not the CLI's: it says so and ends; the MCP
    // connection it closed itself.
    expect(done.stderr).toMatch(/still holds open \(.*(TCPServerWrap|ProcessWrap)/);
    expect(done.stderr).not.toContain('PipeWrap');
    expect(done.ms).toBeLessThan(15_000);
  });

  it('with live tools, names the timer a timed-out tool left, not its own output pipes', async () => {
    const file = join(folder, 'timer.jsonl');
    const { default: desk } = await import('../fixtures/agents/timer-desk.js');
    await recordRun(file, desk, 'Where is order 7?');
    const done = await agentTraceProcess(
      ['rerun', file, '--agent', 'test/fixtures/agents/timer-desk.ts', '--live-tools'],
      20_000,
    );
    expect(done.killed, `killed after ${Math.round(done.ms)} ms`).toBe(false);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('✓ same behaviour');
    expect(done.stderr).toContain('still holds open (a timer (Timeout))');
    expect(done.ms).toBeLessThan(15_000);
  });
});
