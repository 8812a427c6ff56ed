import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '@agent-trace/core';
import { compareTraces, jsonlSink } from '@agent-trace/trace';
import { diffView, viewerHtml } from '@agent-trace/viewer';
import { cli } from '../support/cli.js';
import {
  deskEvents,
  deskWithStrictGuard,
  chromiumForFile,
  openPage,
  scratchFolder,
  text,
  writeTrace,
} from './viewer-support.js';

const browser = chromiumForFile();

describe('the diff page, in Chromium', () => {
  it('aligns two runs step by step and highlights the first divergence at the right seq', async () => {
    const folder = scratchFolder();
    const before = await deskEvents();
    const after = await deskWithStrictGuard();
    const [first] = compareTraces(before, after);
    expect(first).toBeDefined();
    const data = await diffView(
      writeTrace(join(folder, 'before.jsonl'), before),
      writeTrace(join(folder, 'after.jsonl'), after),
    );
    const page = await openPage(browser(), viewerHtml(data), folder);
    const highlighted = page.locator('.diff-row.first-divergence');
    await expect.poll(() => highlighted.count()).toBe(1);
    expect(await highlighted.getAttribute('data-actual-seq')).toBe(String(first!.seq));
    expect(await highlighted.isVisible()).toBe(true);
    expect(await text(page.getByTestId('diff-summary'))).toContain(
      `the first divergence is at seq ${first!.seq} (agent guard)`,
    );
    const details = page.getByLabel('Step details');
    expect(await text(details)).toContain('warn: similarity 0.31');
    expect(await text(details)).toContain('block: similarity 0.31');
    // Steps before the divergence are the same on both sides.
    expect(await page.locator('.diff-row.diff-same').count()).toBeGreaterThan(5);
    await page.close();
  });

  it('shows a rerun against its recording: agent-trace rerun --html', async () => {
    const folder = scratchFolder();
    const { smallDesk } = await import('../fixtures/agents/small-desk.js');
    const trace = join(folder, 'small.jsonl');
    const sink = jsonlSink(trace);
    await run(smallDesk(), 'Refund please', { trace: sink });
    await sink.close();
    const html = join(folder, 'rerun.html');
    const { code, stdout } = await cli([
      'rerun',
      trace,
      '--agent',
      'test/fixtures/agents/changed-desk.ts',
      '--html',
      html,
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain(`wrote ${html}`);
    const page = await openPage(browser(), readFileSync(html, 'utf8'), folder);
    const highlighted = page.locator('.diff-row.first-divergence');
    await expect.poll(() => highlighted.getAttribute('data-actual-seq')).toBe('2');
    expect(await text(page.getByLabel('What differs'))).toContain('the instructions');
    await page.close();
  });
});
