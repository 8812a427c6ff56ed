/**
 * `pnpm screenshots`: the viewer's pictures in docs/images/, made from the demo's desk (and its
 * stricter-guard variant for the diff) in the Chromium the viewer's tests use. Run it again after changing the
 * viewer; the viewer guide (docs/guide/viewer.md) shows the pictures.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { run } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import { diffView, serveLibrary, traceView, viewerHtml } from '@agent-trace/viewer';
import { reviewDesk, type ModelFor } from '../examples/document-review/agents.js';
import { draft } from '../examples/document-review/draft.js';
import { strictGuard } from '../examples/document-review/variants.js';
import { findChromium, launchBrowser } from '../test/support/browser.js';

const out = resolve('docs/images');
const folder = mkdtempSync(join(tmpdir(), 'agent-trace-screenshots-'));
// The pages name the traces as given: short names, as a user in their traces folder would see.
process.chdir(folder);
const viewport = { width: 1440, height: 860 };

async function record(name: string, modelFor?: ModelFor): Promise<string> {
  const path = `${name}.jsonl`;
  const sink = jsonlSink(path);
  await run(reviewDesk(modelFor), `Review this draft: ${draft}`, { trace: sink, session: 'demo' });
  await sink.close();
  return path;
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(out, `viewer-${name}.png`) });
  process.stdout.write(`wrote docs/images/viewer-${name}.png\n`);
}

const browser = await launchBrowser(await findChromium());
try {
  const demo = await record('demo');
  const strict = await record('demo-strict-guard', strictGuard);
  const pagePath = resolve('demo.html');
  writeFileSync(pagePath, viewerHtml(await traceView([demo])));
  const page = await browser.newPage({ viewport });
  await page.goto(pathToFileURL(pagePath).href);
  await page.locator('.row.kind-llm').nth(7).click();
  await shoot(page, 'waterfall');
  await page.locator('.row.kind-tool.status-error').first().click();
  await shoot(page, 'inspector');
  await page.getByRole('tab', { name: 'Agent graph' }).click();
  await shoot(page, 'graph');

  const diffPath = resolve('diff.html');
  writeFileSync(diffPath, viewerHtml(await diffView(demo, strict)));
  await page.goto(pathToFileURL(diffPath).href);
  await shoot(page, 'diff');

  const lines = readFileSync(demo, 'utf8').split('\n');
  writeFileSync(join(folder, 'live.jsonl'), lines.slice(0, 40).join('\n') + '\n');
  const server = await serveLibrary(folder);
  await page.goto(server.url);
  await page.waitForSelector('.row');
  appendFileSync(join(folder, 'live.jsonl'), lines.slice(40, 44).join('\n') + '\n');
  await page.waitForTimeout(400);
  await shoot(page, 'live');
  await server.close();
} finally {
  await browser.close();
  rmSync(folder, { recursive: true, force: true });
}
