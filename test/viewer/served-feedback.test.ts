/**
 * People's feedback in the viewer, in Chromium: the served page takes thumbs, a label, a comment
 * and who on a finished run and the server appends it to the run's file; only a page it served
 * (with its token) may post. The one-file page shows a run's feedback too.
 */
import { join } from 'node:path';
import { request } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFeedback, recordFeedback } from '@agent-trace/trace';
import { readDataset } from '@agent-trace/evals';
import { serveLibrary, traceView, viewerHtml, type ServedViewer } from '@agent-trace/viewer';
import { writeDeskFolder } from '../support/trace-folder.js';
import { chromiumForFile, openPage, scratchFolder, text } from './viewer-support.js';

const browser = chromiumForFile();
let folder: string;
let file: string;
let served: ServedViewer;
let datasets: string;
beforeAll(async () => {
  folder = join(scratchFolder(), 'traces');
  await writeDeskFolder(folder, 1, 3);
  file = join(folder, 'desk-00000.jsonl');
  datasets = join(folder, '..', 'evals');
  served = await serveLibrary(folder, { pollMs: 50, datasets });
});
afterAll(async () => {
  await served.close();
});

async function openRun(id: string): Promise<Page> {
  const page = await browser().newPage({ viewport: { width: 1500, height: 900 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', error => {
    throw error;
  });
  await page.goto(served.url);
  await page.locator(`.run-item[data-run="${id}"]`).click();
  await page.getByRole('button', { name: 'Thumbs down' }).waitFor();
  return page;
}

/** Posts to the server as a page of another site could: without the page's token. */
function post(path: string, body: string, headers: Record<string, string>): Promise<number> {
  const { port } = new URL(served.url);
  return new Promise((done, fail) => {
    const sent = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, answer => {
      answer.resume();
      done(answer.statusCode ?? 0);
    });
    sent.on('error', fail);
    sent.end(body);
  });
}

describe('feedback in the served viewer', () => {
  it('records thumbs down, a label, a comment and who into the run’s file, and shows it', async () => {
    const page = await openRun('run-000001');
    await page.getByRole('button', { name: 'Thumbs down' }).click();
    await page.getByLabel('Label', { exact: true }).fill('refund-failed');
    await page.getByLabel('Comment', { exact: true }).fill('The refund never went through.');
    await page.getByLabel('By', { exact: true }).fill('ana');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect
      .poll(() => text(page.locator('.feedback-form:not(.dataset-adder) [role="status"]')))
      .toBe('Feedback recorded in the trace.');
    expect(await readFeedback(file)).toMatchObject([
      {
        run: 'run-000001',
        score: -1,
        label: 'refund-failed',
        comment: 'The refund never went through.',
        by: 'ana',
        source: 'viewer',
      },
    ]);
    await expect
      .poll(() => text(page.locator('.feedback-given')))
      .toBe(
        'feedback -1 (thumbs down) · refund-failed · "The refund never went through." · by ana via viewer',
      );
    await page.close();
  });

  it('says what is wrong with a feedback that says nothing, and writes nothing', async () => {
    const before = (await readFeedback(file)).length;
    const page = await openRun('run-000002');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect
      .poll(() => text(page.locator('.feedback-form:not(.dataset-adder) [role="status"]')))
      .toMatch(/says nothing/);
    expect(await readFeedback(file)).toHaveLength(before);
    await page.close();
  });

  it('refuses a post without the token of a page it served', async () => {
    const before = (await readFeedback(file)).length;
    const body = JSON.stringify({ file: 'desk-00000.jsonl', run: 'run-000000', score: -1 });
    const { port } = new URL(served.url);
    const headers = { 'content-type': 'application/json', host: `127.0.0.1:${port}` };
    expect(await post('/api/feedback', body, headers)).toBe(403);
    expect(await post('/api/feedback', body, { ...headers, 'x-agent-trace-token': 'guess' })).toBe(
      403,
    );
    expect(await post('/api/runs', body, headers)).toBe(405);
    expect(await readFeedback(file)).toHaveLength(before);
  });
});

describe('Add to dataset in the served viewer', () => {
  it('adds a finished run to the dataset named, once, with its lineage', async () => {
    const page = await openRun('run-000001');
    await page.getByLabel('Dataset', { exact: true }).fill('refunds');
    await page.getByRole('button', { name: 'Add to dataset' }).click();
    const status = page.locator('.dataset-adder [role="status"]');
    await expect.poll(() => text(status)).toMatch(/^Added to refunds\.jsonl \(version \w{12}\)\.$/);
    const cases = readDataset(join(datasets, 'refunds.jsonl')).cases;
    expect(cases).toMatchObject([
      {
        id: 'run-000001',
        metadata: { source: { run: 'run-000001', trace: '../traces/desk-00000.jsonl' } },
      },
    ]);
    await page.getByRole('button', { name: 'Add to dataset' }).click();
    await expect.poll(() => text(status)).toBe('Already in refunds.jsonl (the same input).');
    await page.getByLabel('Dataset', { exact: true }).fill('../outside');
    await page.getByRole('button', { name: 'Add to dataset' }).click();
    await expect.poll(() => text(status)).toMatch(/is not a dataset name/);
    expect(readDataset(join(datasets, 'refunds.jsonl')).cases).toHaveLength(1);
    await page.close();
  });
});

describe('feedback in the one-file page', () => {
  it('shows a run’s feedback above its waterfall, with no form', async () => {
    const one = join(scratchFolder(), 'one');
    await writeDeskFolder(one, 1, 1);
    const path = join(one, 'desk-00000.jsonl');
    await recordFeedback(path, { run: 'run-000000', score: 1, label: 'polite', by: 'qa' });
    const page = await openPage(browser(), viewerHtml(await traceView([path])));
    expect(await text(page.locator('.feedback-given'))).toBe(
      'feedback +1 (thumbs up) · polite · by qa via code',
    );
    expect(await page.getByRole('button', { name: 'Send feedback' }).count()).toBe(0);
    await page.close();
  });
});
