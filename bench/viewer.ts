/**
 * The viewer in a real Chromium: a 100,000-event trace (one run of 25,000 model calls, each with a
 * tool call) against a 40-event one, side by side. For each: the page's size, the time to its first
 * contentful paint and to the waterfall drawn, and the frame times while the waterfall scrolls
 * (ten rows a frame, for 240 frames). `agent-trace replay` of the same trace is timed beside it:
 * what reading the run in the terminal costs today.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { run } from '@agent-trace/core';
import { runCli } from '@agent-trace/cli';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { traceView, viewerHtml } from '@agent-trace/viewer';
import { median, ratio, table, timeIt } from './measure.js';
import { adderAgent, addScript } from './scenario.js';
import { findChromium, launchBrowser } from '../test/support/browser.js';

/** What the viewer benchmark measured for one trace. */
export interface ViewerSample {
  readonly events: number;
  readonly pageMegabytes: number;
  /** Building the page in Node: reading the trace and writing the HTML. */
  readonly buildMs: number;
  readonly firstPaintMs: number;
  /** Until the viewer's script has drawn the page. */
  readonly drawnMs: number;
  readonly frameP50Ms: number;
  readonly frameP95Ms: number;
  readonly frameMaxMs: number;
  /** Frames longer than 1.5 × 16.7 ms (a frame dropped at 60 Hz). */
  readonly slowFrames: number;
  readonly frames: number;
  /** Rows in the DOM at the end of the scroll. */
  readonly domRows: number;
  /** `agent-trace replay` of the same trace, in process, output discarded. */
  readonly replayMs: number;
}

/** The viewer benchmark's result. */
export interface ViewerResult {
  readonly chromium: string;
  readonly small: ViewerSample;
  readonly large: ViewerSample;
}

const frameCount = 240;

/** In the page: when it first painted and when the viewer had drawn it (ms from navigation). */
const paintScript = `({
  firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
  drawn: performance.getEntriesByName('agent-trace:rendered')[0]?.startTime ?? NaN,
})`;

/** In the page: scrolls the waterfall ten rows a frame and returns the time between frames. */
const scrollScript = (count: number): string => `(async () => {
  const list = document.querySelector('.waterfall-rows');
  const gaps = [];
  let last = await new Promise(requestAnimationFrame);
  for (let frame = 0; frame < ${count}; frame++) {
    list.scrollTop += 240;
    const now = await new Promise(requestAnimationFrame);
    gaps.push(now - last);
    last = now;
  }
  return { gaps, rows: document.querySelectorAll('.waterfall-rows .row').length };
})()`;

async function writeRun(path: string, steps: number): Promise<void> {
  const sink = jsonlSink(path);
  await run(adderAgent(fakeLLM(addScript(steps)), steps), 'go', { trace: sink });
  await sink.close();
}

async function measure(browser: Browser, folder: string, steps: number): Promise<ViewerSample> {
  const trace = join(folder, `run-${steps}.jsonl`);
  await writeRun(trace, steps);
  const page = join(folder, `run-${steps}.html`);
  let events = 0;
  const buildMs = await timeIt(async () => {
    const data = await traceView([trace]);
    events = data.mode === 'trace' ? (data.files[0]?.events.length ?? 0) : 0;
    writeFileSync(page, viewerHtml(data));
  });
  const replayMs = await timeIt(() =>
    runCli(['replay', trace], {
      stdout: () => undefined,
      stderr: () => undefined,
      env: {},
      isTTY: false,
    }),
  );
  const tab = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  await tab.goto(pathToFileURL(page).href);
  await tab.waitForSelector('.waterfall-rows .row');
  const paint = await tab.evaluate<{ firstPaint: number; drawn: number }>(paintScript);
  const frames = await tab.evaluate<{ gaps: number[]; rows: number }>(scrollScript(frameCount));
  await tab.close();
  const sorted = [...frames.gaps].sort((a, b) => a - b);
  return {
    events,
    pageMegabytes: statSync(page).size / 2 ** 20,
    buildMs,
    firstPaintMs: paint.firstPaint,
    drawnMs: paint.drawn,
    frameP50Ms: median(sorted),
    frameP95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? NaN,
    frameMaxMs: sorted.at(-1) ?? NaN,
    slowFrames: sorted.filter(gap => gap > 25).length,
    frames: sorted.length,
    domRows: frames.rows,
    replayMs,
  };
}

/** Opens a small and a 100,000-event trace in Chromium and measures both. */
export async function measureViewer(): Promise<ViewerResult> {
  const browser = await launchBrowser(await findChromium());
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-bench-viewer-'));
  try {
    const small = await measure(browser, folder, 10);
    const large = await measure(browser, folder, 25_000);
    return { chromium: browser.version(), small, large };
  } finally {
    await browser.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** The table, large beside small, with the ratios. */
export function formatViewer(result: ViewerResult): string {
  const { small, large } = result;
  const row = (name: string, pick: (sample: ViewerSample) => number, format = ms): string[] => [
    name,
    format(pick(small)),
    format(pick(large)),
    pick(small) === 0 ? '—' : ratio(pick(large) / pick(small)),
  ];
  return [
    `Chromium ${result.chromium}, 1500×900, scrolling 10 rows a frame for ${large.frames} frames`,
    table([
      [
        '',
        `${small.events} events`,
        `${large.events.toLocaleString('en-US')} events`,
        'large / small',
      ],
      row(
        'page size',
        sample => sample.pageMegabytes,
        value => `${value.toFixed(2)} MB`,
      ),
      row('build the page (Node)', sample => sample.buildMs),
      row('first contentful paint', sample => sample.firstPaintMs),
      row('waterfall drawn', sample => sample.drawnMs),
      row('frame time p50 while scrolling', sample => sample.frameP50Ms),
      row('frame time p95 while scrolling', sample => sample.frameP95Ms),
      row('frame time max while scrolling', sample => sample.frameMaxMs),
      row(
        'frames over 25 ms',
        sample => sample.slowFrames,
        value => String(value),
      ),
      row(
        'rows in the DOM',
        sample => sample.domRows,
        value => String(value),
      ),
      row('agent-trace replay (terminal)', sample => sample.replayMs),
    ]),
    `first paint of ${large.events.toLocaleString('en-US')} events: ${ratio(large.firstPaintMs / large.replayMs)} the time replay takes to print them; p95 frame ${ratio(large.frameP95Ms / 16.7)} of a 60 Hz frame`,
  ].join('\n');
}
