// `regress --live-tools`: which recorded runs does a change of a tool's own code change? With
// recorded tools the rerun answers from the recording and cannot tell; with live tools it runs
// them, says so, and names the runs whose tool results changed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { runCli } from '@agent-trace/cli';
import { jsonlSink } from '@agent-trace/trace';
import { beforeAll, describe, expect, it } from 'vitest';
import { smallDesk } from '../fixtures/agents/small-desk.js';

let folder = '';
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'regress-live-tools-'));
  const sink = jsonlSink(join(folder, 'desk.jsonl'));
  await run(smallDesk(), 'Weather in Paris, then a refund', { trace: sink });
  await sink.close();
});

async function regressCli(...args: string[]): Promise<{ code: number; printed: string }> {
  const lines: string[] = [];
  const write = (text: string): void => void lines.push(text);
  const code = await runCli(['regress', folder, '--no-store', ...args], {
    stdout: write,
    stderr: write,
    env: { NO_COLOR: '1' },
    isTTY: false,
  });
  return { code, printed: lines.join('\n') };
}

describe('regress --live-tools', () => {
  const changed = 'test/fixtures/agents/small-desk-tool-changed.ts';

  it('with recorded tools, a change of a tool’s code reruns as the same', async () => {
    const { code, printed } = await regressCli('--agent', changed);
    expect(code).toBe(0);
    expect(printed).toContain('1 run: 1 same, 0 diverged');
    expect(printed).not.toContain('live tools');
  });

  it('with live tools, the run whose tool result changed diverges there, and the report says the tools ran', async () => {
    const { code, printed } = await regressCli('--agent', changed, '--live-tools');
    expect(code).toBe(0);
    expect(printed).toContain('with live tools: the real tools of');
    expect(printed).toContain('0 same, 1 diverged');
    expect(printed).toContain(`expected: tool 'weather' returns "Paris: 21°C"`);
    expect(printed).toContain(`actual:   tool 'weather' returns "Paris: 70°F"`);
  });

  it('with live tools, unchanged code reruns as the same', async () => {
    const { code, printed } = await regressCli(
      '--agent',
      'test/fixtures/agents/small-desk.ts',
      '--live-tools',
    );
    expect(code).toBe(0);
    expect(printed).toContain('1 same, 0 diverged');
  });
});
