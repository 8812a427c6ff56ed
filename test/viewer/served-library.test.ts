import { appendFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveLibrary, type ServedViewer } from '@agent-trace/viewer';
import { copiedRun, deskRunLines, writeDeskFolder, type DeskRun } from '../support/trace-folder.js';
import { chromiumForFile, scratchFolder, text } from './viewer-support.js';

const browser = chromiumForFile();
let folder: string;
let served: ServedViewer;
let kinds: Record<DeskRun, string[]>;
beforeAll(async () => {
  folder = join(scratchFolder(), 'traces');
  kinds = await writeDeskFolder(folder, 3, 3);
  served = await serveLibrary(folder, { pollMs: 50 });
});
afterAll(async () => {
  await served.close();
});

/** A fresh tab on the served page, failing on any page error. */
async function openServed(): Promise<Page> {
  const page = await browser().newPage({ viewport: { width: 1500, height: 900 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', error => {
    throw error;
  });
  await page.goto(served.url);
  await page.waitForSelector('.run-item');
  return page;
}

/** The run ids the list shows, in its order. */
async function listed(page: Page): Promise<string[]> {
  // One look at the list, so a redraw in between cannot leave an item half read.
  return page.evaluate<string[]>(
    "[...document.querySelectorAll('.run-item')].map(item => item.getAttribute('data-run') ?? '')",
  );
}

/** Types into a filter field and applies it (Enter), as a user does. */
async function filterBy(page: Page, label: string, value: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.press('Enter');
}

const sorted = (ids: readonly string[]) => [...ids].sort();

describe('agent-trace serve, in Chromium', () => {
  it('lists the runs of every file and narrows them by agent, tool, stop reason, errors, cost and sort', async () => {
    const page = await openServed();
    await expect.poll(() => listed(page)).toHaveLength(9);
    expect((await listed(page))[0]).toBe('run-000008');
    await filterBy(page, 'Tool', 'refund');
    await expect
      .poll(async () => sorted(await listed(page)))
      .toEqual(sorted([...kinds.refunded, ...kinds.refund_fails]));
    await page.getByLabel('Stop reason').selectOption('failed');
    await expect.poll(async () => sorted(await listed(page))).toEqual(sorted(kinds.refund_fails));
    await page.getByLabel('Stop reason').selectOption('');
    await filterBy(page, 'Tool', '');
    await page.getByLabel('with errors only').check();
    await expect.poll(async () => sorted(await listed(page))).toEqual(sorted(kinds.refund_fails));
    await page.getByLabel('with errors only').uncheck();
    await filterBy(page, 'Agent', 'billing');
    await expect.poll(() => listed(page)).toHaveLength(6);
    await filterBy(page, 'Agent', '');
    await filterBy(page, 'Least cost', '0.0005');
    await expect.poll(async () => sorted(await listed(page))).toEqual(sorted(kinds.refund_fails));
    await filterBy(page, 'Least cost', '');
    await page.getByLabel('Sort').selectOption('cost');
    await expect.poll(async () => kinds.refund_fails.includes((await listed(page))[0]!)).toBe(true);
    await filterBy(page, 'Session', 'run-000004');
    await expect.poll(() => listed(page)).toEqual(['run-000004']);
    await page.close();
  });

  it('finds runs by words in their inputs and outputs', async () => {
    const page = await openServed();
    await filterBy(page, 'Text', 'ship');
    await expect.poll(async () => sorted(await listed(page))).toEqual(sorted(kinds.answered));
    await filterBy(page, 'Text', 'payment provider refused');
    await expect.poll(async () => sorted(await listed(page))).toEqual(sorted(kinds.refund_fails));
    await filterBy(page, 'Text', 'no run says this');
    await expect.poll(() => listed(page)).toEqual([]);
    await page.close();
  });

  it('opens a run from the list: its rows fetched from its file, a row in the inspector', async () => {
    const page = await openServed();
    const failing = kinds.refund_fails[0]!;
    await page.locator(`.run-item[data-run="${failing}"]`).click();
    await expect.poll(() => text(page.locator('.run-title'))).toContain(failing);
    await page.waitForSelector('.waterfall-rows .row.kind-tool.status-error');
    const rows = await page.locator('.waterfall-rows .row').count();
    expect(rows).toBeGreaterThan(10);
    expect(await page.locator('.waterfall-rows .row.pending').count()).toBe(0);
    await page.locator('.waterfall-rows .row.kind-tool.status-error').first().click();
    const inspector = page.getByLabel('Inspector');
    await expect.poll(() => text(inspector)).toContain('the payment provider refused A-1');
    expect(await text(inspector)).toContain('refund');
    expect(await text(page.getByLabel('Totals'))).toMatch(/runs\s*9/);
    await page.close();
  });

  it('shows a new file and a growing run without a reload', async () => {
    const page = await openServed();
    const lines = await deskRunLines('refunded');
    const fresh = copiedRun(lines, 'run-fresh', 400 * 3_600_000);
    mkdirSync(join(folder, 'later'), { recursive: true });
    writeFileSync(join(folder, 'later', 'fresh.jsonl'), fresh);
    await expect.poll(() => listed(page), { timeout: 5000 }).toContain('run-fresh');
    const growing = copiedRun(lines, 'run-growing', 500 * 3_600_000).split('\n');
    const half = Math.floor(growing.length / 2);
    writeFileSync(join(folder, 'later', 'growing.jsonl'), growing.slice(0, half).join('\n') + '\n');
    await expect.poll(() => listed(page), { timeout: 5000 }).toContain('run-growing');
    await page.locator('.run-item[data-run="run-growing"]').click();
    await page.waitForSelector('.waterfall-rows .row.status-open');
    const before = await page.locator('.waterfall-rows .row').count();
    appendFileSync(join(folder, 'later', 'growing.jsonl'), growing.slice(half).join('\n'));
    await expect
      .poll(() => text(page.locator('.run-item[data-run="run-growing"]')), { timeout: 5000 })
      .toContain('completed');
    await expect
      .poll(() => page.locator('.waterfall-rows .row.status-open').count(), { timeout: 5000 })
      .toBe(0);
    expect(await page.locator('.waterfall-rows .row').count()).toBeGreaterThan(before);
    await page.close();
  });

  it('is read-only and reaches no file outside the folder', async () => {
    writeFileSync(join(folder, 'notes.txt'), 'not a trace');
    const outside = scratchFolder();
    writeFileSync(
      join(outside, 'elsewhere.jsonl'),
      copiedRun(await deskRunLines('answered'), 'x', 0),
    );
    symlinkSync(join(outside, 'elsewhere.jsonl'), join(folder, 'link.jsonl'));
    const port = new URL(served.url).port;
    const status = (path: string, options: { host?: string; method?: string } = {}) =>
      new Promise<number | undefined>((resolve, reject) => {
        const call = request(
          new URL(path, served.url),
          {
            headers: { host: options.host ?? `127.0.0.1:${port}` },
            method: options.method ?? 'GET',
          },
          response => {
            response.resume();
            resolve(response.statusCode);
          },
        );
        call.on('error', reject);
        call.end();
      });
    const run = '&run=x';
    expect(await status(`/api/run?file=desk-00000.jsonl&run=run-000000`)).toBe(200);
    for (const file of [
      '../../../../etc/passwd.jsonl',
      '..%2F..%2F..%2Fetc%2Fpasswd.jsonl',
      '%2Fetc%2Fpasswd.jsonl',
      `${outside}/elsewhere.jsonl`,
      'link.jsonl',
      'notes.txt',
      '.agent-trace/index.duckdb',
    ])
      for (const api of ['run', 'outline', 'rows'])
        expect(await status(`/api/${api}?file=${file}${run}`), `${api} ${file}`).toBe(404);
    expect(await status('/api/__proto__')).toBe(404);
    expect(await status('/api/runs', { host: `evil.example:${port}` })).toBe(403);
    expect(await status('/api/runs', { method: 'POST' })).toBe(405);
    expect(await status('/api/runs', { method: 'DELETE' })).toBe(405);
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });
});
