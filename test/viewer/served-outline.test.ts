import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { TraceEvent } from '@agent-trace/core';
import { serveFiles, type RunSummary, type ServedViewer } from '@agent-trace/viewer';
import { buildRuns } from '../../packages/viewer/app/model/run-model.js';
import type { ListRows } from '../../packages/viewer/app/model/run-rows.js';
import type { DrawnRow } from '../../packages/viewer/src/drawn-row.js';
import { rowKinds } from '../../packages/viewer/src/row-kinds.js';
import { isSpanStart } from '@agent-trace/core/spans';
import {
  approvalEvents,
  chromiumForFile,
  deskEvents,
  flakyToolEvents,
  longRunEvents,
  plannedEvents,
  reactEvents,
  scratchFolder,
} from './viewer-support.js';

let served: ServedViewer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const line = (event: TraceEvent): string => `${JSON.stringify(event)}\n`;

/** One row as the served viewer gives it: from the outline, the window of rows and their events. */
interface ServedRow {
  readonly seq: number;
  readonly depth: number;
  readonly subtreeEnd: number;
  readonly kind: string;
  readonly title: string;
  readonly summary: string;
  readonly status: string;
  readonly ended: boolean;
  readonly start: TraceEvent;
  readonly end: TraceEvent | null;
}

/**
 * Every run of the served file as the page would see it: the outline, then every row as drawn,
 * then every row's events.
 */
async function servedRuns(url: string, file: string): Promise<Map<string, ServedRow[]>> {
  const summaries = (await fetch(new URL('/api/runs', url)).then(answer =>
    answer.json(),
  )) as RunSummary[];
  const runs = new Map<string, ServedRow[]>();
  for (const { id } of summaries.filter(summary => summary.file === file)) {
    const query = `file=${encodeURIComponent(file)}&run=${encodeURIComponent(id)}`;
    const answer = await fetch(new URL(`/api/outline?${query}`, url));
    const outline = new Int32Array(await answer.arrayBuffer());
    const n = outline.length / 4;
    const window = `${query}&from=0&to=${n}`;
    const { rows } = (await fetch(new URL(`/api/rows?${window}`, url)).then(answer =>
      answer.json(),
    )) as { rows: DrawnRow[] };
    const events = (await fetch(new URL(`/api/events?${window}`, url)).then(answer =>
      answer.json(),
    )) as { rows: { start: TraceEvent; end: TraceEvent | null }[] };
    runs.set(
      id,
      rows.map((row, index) => ({
        seq: outline[index]!,
        depth: outline[n + index]!,
        subtreeEnd: outline[n * 2 + index]!,
        kind: rowKinds[outline[n * 3 + index]!]!,
        title: row.title,
        summary: row.summary,
        status: row.status,
        ended: row.endAt !== null,
        start: events.rows[index]!.start,
        end: events.rows[index]!.end,
      })),
    );
  }
  return runs;
}

/** The rows the page builds when it holds the events whole: what the served rows must equal. */
function pageRuns(events: readonly TraceEvent[]): Map<string, ServedRow[]> {
  return new Map(
    buildRuns(events).map(run => [
      run.id,
      (run.rows as ListRows).list.map(row => ({
        seq: row.seq,
        depth: row.depth,
        subtreeEnd: row.subtreeEnd,
        kind: row.kind,
        title: row.title,
        summary: row.summary,
        status: row.status,
        ended: row.ended,
        start: row.start,
        end: row.end ?? null,
      })),
    ]),
  );
}

describe('the served viewer’s outline of a run', () => {
  it('is the page’s span tree, row for row, for every kind of run', async () => {
    const traces = {
      desk: await deskEvents(),
      approval: await approvalEvents(),
      flaky: await flakyToolEvents(),
      react: await reactEvents(),
      planned: await plannedEvents(),
    };
    const folder = scratchFolder();
    const files = Object.entries(traces).map(([name, events]) => {
      const file = join(folder, `${name}.jsonl`);
      writeFileSync(file, events.map(line).join(''));
      return file;
    });
    served = await serveFiles(files);
    for (const [index, events] of Object.values(traces).entries()) {
      const expected = pageRuns(events);
      const got = await servedRuns(served.url, files[index]!);
      expect([...got.keys()]).toEqual([...expected.keys()]);
      for (const [run, rows] of expected) expect(got.get(run)).toEqual(rows);
    }
  });

  it('draws a row whose event is not what its kind holds by its name, as the page does', async () => {
    const events = await deskEvents();
    const broken = events.findIndex(event => event.event === 'llm_end');
    const written = events.map((event, index) =>
      index === broken ? { ...event, tool_calls: 'not a list' } : event,
    ) as TraceEvent[];
    const file = join(scratchFolder(), 'broken.jsonl');
    writeFileSync(file, written.map(line).join(''));
    served = await serveFiles([file]);
    const got = await servedRuns(served.url, file);
    const expected = pageRuns(written);
    for (const [run, rows] of expected) expect(got.get(run)).toEqual(rows);
    // The row of that model call shows, by its event's name, with a warning and its events.
    const row = [...got.values()].flat().find(each => each.end?.seq === written[broken]!.seq);
    expect(row).toMatchObject({
      title: 'llm_start',
      status: 'warn',
      summary: 'not what this kind of event holds: see its events',
      end: { tool_calls: 'not a list' },
    });
  });

  it('follows a file as it is written: every prefix, a torn last line read once it is whole', async () => {
    const events = [...(await deskEvents()), ...(await approvalEvents())];
    const folder = scratchFolder();
    const file = join(folder, 'growing.jsonl');
    writeFileSync(file, '');
    served = await serveFiles([file]);
    let written = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 40 }), fc.nat({ max: 200 }), async (ahead, torn) => {
        const upTo = Math.min(events.length, written + ahead);
        appendFileSync(file, events.slice(written, upTo).map(line).join(''));
        written = upTo;
        const next = events[written];
        const tail =
          next === undefined ? '' : line(next).slice(0, Math.min(torn, line(next).length - 1));
        appendFileSync(file, tail);
        const got = await servedRuns(served!.url, file);
        const expected = pageRuns(events.slice(0, written));
        expect([...got.keys()]).toEqual([...expected.keys()]);
        for (const [run, rows] of expected) expect(got.get(run)).toEqual(rows);
        // The rest of the torn line: the next round starts on a whole line.
        if (next !== undefined) appendFileSync(file, line(next).slice(tail.length));
        if (next !== undefined) written++;
      }),
      { numRuns: 25, seed: 31 },
    );
  });
});

describe('a big run in the served viewer, in Chromium', () => {
  const browser = chromiumForFile();

  it('fetches the outline in a worker, drawn rows in windows as they scroll into view, and only the inspected row’s events', async () => {
    const events = await longRunEvents(1500);
    const folder = scratchFolder();
    const file = join(folder, 'long.jsonl');
    writeFileSync(file, events.map(line).join(''));
    served = await serveFiles([file]);
    const page = await browser().newPage({ viewport: { width: 1500, height: 900 } });
    page.setDefaultTimeout(10_000);
    const windows: string[] = [];
    const eventRequests: string[] = [];
    page.on('request', request => {
      const { pathname, search } = new URL(request.url());
      if (pathname === '/api/rows') windows.push(search);
      if (pathname === '/api/events') eventRequests.push(search);
    });
    const workers: string[] = [];
    page.on('worker', worker => workers.push(new URL(worker.url()).pathname));

    await page.goto(served.url);
    await page.waitForSelector('.waterfall-rows .row.kind-llm');
    const seen = new Set<number>();
    for (;;) {
      await expect.poll(() => page.locator('.waterfall-rows .row.pending').count()).toBe(0);
      for (const seq of await page.evaluate<string[]>(
        "[...document.querySelectorAll('.waterfall-rows .row')].map(row => row.getAttribute('data-seq'))",
      ))
        seen.add(Number(seq));
      const done = await page.evaluate<boolean>(
        "(() => { const list = document.querySelector('.waterfall-rows'); const before = list.scrollTop; list.scrollTop += list.clientHeight - 48; return list.scrollTop === before; })()",
      );
      if (done) break;
      // The list draws the rows now in view on its scroll event: two frames later.
      await page.evaluate(
        'new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))',
      );
    }
    const starts = events.filter(event => isSpanStart(event.event)).map(event => event.seq);
    expect([...seen].sort((a, b) => a - b)).toEqual(starts);
    // 3,002 rows in windows of 200: each window asked for once or so, never the whole run.
    expect(windows.length).toBeGreaterThanOrEqual(15);
    expect(windows.every(query => /from=\d+&to=\d+/.test(query))).toBe(true);
    // The outline came through the page's outline worker, off the page's thread: the worker's
    // timeline has its fetch, the page's none.
    expect(workers).toEqual(['/outline-worker.js']);
    const outlineFetches =
      "performance.getEntriesByType('resource').filter(entry => entry.name.includes('/api/outline')).length";
    expect(await page.evaluate<number>(outlineFetches)).toBe(0);
    expect(await page.workers()[0]!.evaluate<number>(outlineFetches)).toBeGreaterThan(0);
    // Drawing never needed an event: the rows came drawn.
    expect(eventRequests).toEqual([]);
    const last = starts.at(-1)!;
    await page.locator(`.row[data-seq="${last}"]`).click();
    const inspector = page.getByLabel('Inspector');
    expect(await inspector.getAttribute('data-seq')).toBe(String(last));
    // Its events are fetched for the inspector, that row's alone.
    await inspector.locator('details.raw summary').first().waitFor();
    const start = events.find(event => event.seq === last)!;
    const end = events.find(event => event.seq > last && event.span_id === start.span_id)!;
    expect(await inspector.locator('details.raw summary').allInnerTexts()).toEqual([
      `seq ${start.seq} · ${start.event}`,
      `seq ${end.seq} · ${end.event}`,
    ]);
    expect(eventRequests).toHaveLength(1);
    expect(eventRequests[0]).toMatch(/from=\d+&to=\d+/);
    await page.close();
  });
});
