/**
 * A big single trace in the served viewer, in a real Chromium: a trace of about 1 GB (one run of
 * some 900,000 rows) served by `serveFiles` in a process of its own, as `agent-trace view` serves a
 * trace past its page size. Measured: the first paint and the first rows drawn, the whole file read
 * into the outline beside the floor of reading it (every line split and parsed, in a process of
 * its own), the server's peak RSS, the tab's JS heap, and the frames while the waterfall scrolls
 * from the first row to the last. Every step has a time cap.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { compiledWorker } from './compiled.js';
import { figure, median, ratio, runWorker, table } from './measure.js';
import { writeBigTrace } from './pipeline/big-trace.js';
import { findChromium, launchBrowser } from '../test/support/browser.js';

/** What the big-trace benchmark measured, or why a part has no number. */
export interface BigTraceResult {
  readonly bytes: number;
  readonly events: number;
  readonly rows: number;
  readonly firstPaintMs: number;
  readonly firstRowsMs: number;
  /** Until the server had read the whole file into its outline. */
  readonly readAllMs: number;
  /** Reading and parsing every line, alone. */
  readonly floorMs: number;
  readonly serverPeakRssMb: number;
  readonly tabHeapMb: number;
  readonly frameP50Ms: number;
  readonly frameP95Ms: number;
  readonly frameMaxMs: number;
  readonly frames: number;
  /** Rows still waiting to be drawn a moment after the scroll stopped at the end. */
  readonly pendingAtEnd: number;
  readonly failed?: string;
}

/** Rejects when `work` takes longer than `capMs`, naming it. */
function capped<T>(what: string, capMs: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: capped at ${capMs / 1000} s`)), capMs);
  });
  return Promise.race([work, cap]).finally(() => clearTimeout(timer));
}

/**
 * Starts the served viewer of `file` in its own process, compiled as the built CLI runs it (under
 * tsx the loader's own memory was in the server's peak); gives its address and pid.
 */
async function startServer(file: string) {
  const worker = await compiledWorker('bench/pipeline/served-worker.ts');
  const child = spawn(process.execPath, [worker, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const address = new Promise<{ url: string; pid: number }>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      const line = data.toString().trim().split('\n').at(-1) ?? '';
      if (line.startsWith('{')) resolve(JSON.parse(line) as { url: string; pid: number });
    });
    child.on('close', code => reject(new Error(`the served viewer exited (${code})`)));
  });
  return { child, address };
}

/** A process's peak resident memory so far, in MB (Linux). */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** The page's JS heap in use, in MB, as Chromium's DevTools protocol reports it. */
async function heapMb(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  await session.send('Performance.enable');
  const { metrics } = await session.send('Performance.getMetrics');
  return (metrics.find(metric => metric.name === 'JSHeapUsedSize')?.value ?? Number.NaN) / 2 ** 20;
}

/** In the page: scrolls the waterfall from top to bottom in `count` frames; the gaps between them. */
const scrollScript = (count: number): string => `(async () => {
  const list = document.querySelector('.waterfall-rows');
  list.scrollTop = 0;
  const step = (list.scrollHeight - list.clientHeight) / ${count};
  const gaps = [];
  let last = await new Promise(requestAnimationFrame);
  for (let frame = 0; frame < ${count}; frame++) {
    list.scrollTop += step;
    const now = await new Promise(requestAnimationFrame);
    gaps.push(now - last);
    last = now;
  }
  return gaps;
})()`;

/** The run's rows as the toolbar counts them (`N of M rows`). */
async function rowsShown(page: Page): Promise<number> {
  const text = await page.locator('.waterfall .toolbar .muted').innerText();
  return Number(/of ([\d,]+) rows/.exec(text)?.[1]?.replaceAll(',', '') ?? 0);
}

/**
 * Waits until the server has read the whole file (its run's summary says it is no longer
 * reading); gives when it saw that and the run's rows then.
 */
async function untilRead(url: string, capMs: number): Promise<{ at: number; rows: number }> {
  const runs = (await (await fetch(new URL('/api/runs', url))).json()) as {
    file: string;
    id: string;
  }[];
  const { file, id } = runs[0]!;
  const address = new URL(
    `/api/run?file=${encodeURIComponent(file)}&run=${encodeURIComponent(id)}`,
    url,
  );
  const started = performance.now();
  for (;;) {
    if (performance.now() - started > capMs)
      throw new Error(`reading the file: capped at ${capMs / 1000} s`);
    const summary = (await (await fetch(address)).json()) as {
      rowCount: number;
      reading?: unknown;
    };
    if (summary.reading === undefined) return { at: performance.now(), rows: summary.rowCount };
    await new Promise(resolve => setTimeout(resolve, 50));
  }
}

/** Writes a trace of `megabytes`, serves it and measures it in Chromium. */
export async function measureBigTrace(megabytes: number, capMs: number): Promise<BigTraceResult> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-bench-big-'));
  const file = join(folder, 'big.jsonl');
  const written = await writeBigTrace(file, megabytes * 2 ** 20);
  const empty = {
    bytes: written.bytes,
    events: written.events,
    rows: 0,
    firstPaintMs: NaN,
    firstRowsMs: NaN,
    readAllMs: NaN,
    floorMs: NaN,
    serverPeakRssMb: NaN,
    tabHeapMb: NaN,
    frameP50Ms: NaN,
    frameP95Ms: NaN,
    frameMaxMs: NaN,
    frames: 0,
    pendingAtEnd: NaN,
  };
  const floor = await runWorker<{ milliseconds: number }>(
    await compiledWorker('bench/pipeline/scan-worker.ts'),
    [file],
    capMs,
  ).catch((error: Error) => ({ milliseconds: NaN, failed: error.message }));
  const browser = await launchBrowser(await findChromium());
  const server = await startServer(file);
  try {
    const { url, pid } = await capped('starting the server', capMs, server.address);
    const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
    const opened = performance.now();
    await page.goto(url);
    await capped('the first rows', capMs, page.waitForSelector('.waterfall-rows .row.kind-llm'));
    const firstRowsMs = performance.now() - opened;
    const firstPaintMs = await page.evaluate<number>(
      "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN",
    );
    const read = await untilRead(url, capMs);
    await capped(
      'the whole outline in the page',
      capMs,
      (async () => {
        while ((await rowsShown(page)) < read.rows) await page.waitForTimeout(100);
      })(),
    );
    const gaps = await capped('scrolling', capMs, page.evaluate<number[]>(scrollScript(400)));
    await page.waitForTimeout(500);
    const pendingAtEnd = await page.locator('.waterfall-rows .row.pending').count();
    const tabHeapMb = await heapMb(page);
    const sorted = [...gaps].sort((a, b) => a - b);
    return {
      ...empty,
      rows: read.rows,
      firstPaintMs,
      firstRowsMs,
      readAllMs: read.at - opened,
      floorMs: floor.milliseconds,
      serverPeakRssMb: peakRssMb(pid),
      tabHeapMb,
      frameP50Ms: median(sorted),
      frameP95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? NaN,
      frameMaxMs: sorted.at(-1) ?? NaN,
      frames: sorted.length,
      pendingAtEnd,
    };
  } catch (error) {
    return { ...empty, failed: error instanceof Error ? error.message : String(error) };
  } finally {
    server.child.kill('SIGKILL');
    await browser.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

const ms = (value: number): string => `${figure(value)} ms`;

/** The table of the big trace's numbers, with the read beside its floor. */
export function formatBigTrace(result: BigTraceResult): string {
  const size = `${(result.bytes / 2 ** 30).toFixed(2)} GB, ${result.events.toLocaleString('en')} events, ${result.rows.toLocaleString('en')} rows in one run`;
  if (result.failed !== undefined) return `${size}\n  failed: ${result.failed}`;
  return `${size}\n${table([
    ['', 'value', 'target'],
    ['first paint', ms(result.firstPaintMs), '< 2 s'],
    ['first rows drawn (from navigation)', ms(result.firstRowsMs), ''],
    [
      'whole file read into the outline',
      `${ms(result.readAllMs)} (${ratio(result.readAllMs / result.floorMs)} reading + parsing every line: ${ms(result.floorMs)})`,
      '',
    ],
    ['server peak RSS', `${figure(result.serverPeakRssMb)} MB`, '< 300 MB'],
    ['tab JS heap after scrolling the whole run', `${figure(result.tabHeapMb)} MB`, '< 200 MB'],
    [
      `frames scrolling first row to last (${result.frames})`,
      `p50 ${ms(result.frameP50Ms)}, p95 ${ms(result.frameP95Ms)}, max ${ms(result.frameMaxMs)}`,
      '< 50 ms',
    ],
    ['rows still pending 0.5 s after the scroll', String(result.pendingAtEnd), ''],
  ])}`;
}
