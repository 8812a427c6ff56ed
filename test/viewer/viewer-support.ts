import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { z } from 'zod';
import { agent, run, sequentialIds, steppingClock, tool, type TraceEvent } from '@agent-trace/core';
import { planAndRun } from '@agent-trace/core/workflow';
import { fakeLLM, rejectTool, runWithApprover } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { plannerAgent, request } from '../../examples/data-pipeline/planner.js';
import { pipelineTools } from '../../examples/data-pipeline/tools.js';
import { reviewDesk, type ModelFor } from '../../examples/document-review/agents.js';
import { draft } from '../../examples/document-review/draft.js';
import { strictGuard } from '../../examples/document-review/variants.js';
import { questions } from '../../examples/react-runtime/questions.js';
import { reactRuntime } from '../../examples/react-runtime/runtime.js';
import { launchBrowser } from '../support/browser.js';
import { deterministic } from '../support/deterministic.js';

/** The suite's Chromium (found once by the global setup), started headless. */
export function launchChromium(): Promise<Browser> {
  return launchBrowser(inject('chromium'));
}

/** One Chromium for the tests of a file: started before them, closed after them. */
export function chromiumForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined)
      throw new Error('Chromium is started before the tests: use it in one.');
    return browser;
  };
}

/** A fresh folder under the system's temp folder. */
export function scratchFolder(): string {
  return mkdtempSync(join(tmpdir(), 'agent-trace-viewer-'));
}

/** Writes events as a JSONL trace. */
export function writeTrace(path: string, events: readonly TraceEvent[]): string {
  writeFileSync(path, events.map(event => `${JSON.stringify(event)}\n`).join(''));
  return path;
}

/** Opens a page written to disk, as `agent-trace view` leaves it, and fails on any page error. */
export async function openPage(
  browser: Browser,
  html: string,
  folder = scratchFolder(),
): Promise<Page> {
  const file = join(folder, 'page.html');
  writeFileSync(file, html);
  const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', error => errors.push(error.message));
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('.page');
  if (errors.length > 0) throw new Error(`The page failed: ${errors.join('; ')}`);
  return page;
}

/**
 * The seqs of every waterfall row, scrolling the windowed list from top to bottom (only the rows
 * in view are in the DOM).
 */
export async function allRowSeqs(page: Page): Promise<Set<number>> {
  const seen = new Set<number>();
  const list = page.locator('.waterfall-rows');
  await list.evaluate(element => {
    element.scrollTop = 0;
  });
  for (;;) {
    for (const row of await page.locator('.waterfall-rows .row').all())
      seen.add(Number(await row.getAttribute('data-seq')));
    const done = await list.evaluate(element => {
      const before = element.scrollTop;
      element.scrollTop += element.clientHeight / 2;
      return element.scrollTop === before;
    });
    if (done) return seen;
    await page.evaluate(() => new Promise(resolve => setTimeout(resolve, 0)));
  }
}

/** The demo's desk run on its FakeLLM scripts, with a fixed clock and ids. */
export async function deskEvents(modelFor?: ModelFor): Promise<TraceEvent[]> {
  const sink = memorySink();
  await run(reviewDesk(modelFor), `Review this draft: ${draft}`, {
    trace: sink,
    session: 'demo',
    ...deterministic(),
  });
  return [...sink.events];
}

/** The desk with a guard that blocks: the same run up to the guard's answer, then not. */
export function deskWithStrictGuard(): Promise<TraceEvent[]> {
  return deskEvents(strictGuard);
}

/** What a page would run if it ever treated trace text as markup. */
export const markup =
  '<script>window.__pwned = "script"</script><img src="x" onerror="window.__pwned = \'img\'"><b>bold</b>';

/** A run whose tool result and model answer hold markup. */
export async function markupEvents(): Promise<TraceEvent[]> {
  const fetchPage = tool({
    name: 'fetch_page',
    description: 'Fetches a web page',
    input: z.object({ url: z.string() }),
    execute: () => Promise.resolve({ html: markup }),
  });
  const reader = agent({
    name: 'reader',
    instructions: 'Read the page.',
    model: fakeLLM([
      { toolCalls: [{ name: 'fetch_page', args: { url: 'https://example.com/<script>' } }] },
      { text: `The page says: ${markup}` },
    ]),
    tools: [fetchPage],
  });
  const sink = memorySink();
  const ids = { ...sequentialIds(), runId: () => 'run-markup' };
  await run(reader, `Summarise ${markup}`, { trace: sink, ...deterministic(), ids });
  return [...sink.events];
}

/** The text a locator's element shows. */
export function text(locator: Locator): Promise<string> {
  return locator.innerText();
}

/** One agent making `steps` model calls, each asking for one tool call: 4 events a step. */
export async function longRunEvents(steps: number): Promise<TraceEvent[]> {
  const tick = tool({
    name: 'tick',
    description: 'Counts',
    input: z.object({ n: z.number() }),
    execute: ({ n }) => Promise.resolve(n),
  });
  const script = Array.from({ length: steps - 1 }, (_, n) => ({
    toolCalls: [{ name: 'tick', args: { n } }],
  }));
  const counter = agent({
    name: 'counter',
    instructions: 'Count.',
    model: fakeLLM([...script, { text: 'done' }]),
    tools: [tick],
    limits: { maxSteps: steps, maxToolCallsPerTool: steps },
  });
  const sink = memorySink();
  await run(counter, 'count', { trace: sink, ...deterministic() });
  return [...sink.events];
}

/** A run whose tool fails once and succeeds on its retry. */
export async function flakyToolEvents(): Promise<TraceEvent[]> {
  let calls = 0;
  const flaky = tool({
    name: 'flaky',
    description: 'Fails the first time',
    input: z.object({}),
    execute: () =>
      ++calls === 1 ? Promise.reject(new Error('connection reset')) : Promise.resolve('ok'),
  });
  const caller = agent({
    name: 'caller',
    instructions: 'Call it.',
    model: fakeLLM([{ toolCalls: [{ name: 'flaky', args: {} }] }, { text: 'done' }]),
    tools: [flaky],
    retry: { toolRetries: 1, baseDelayMs: 0 },
  });
  const sink = memorySink();
  await run(caller, 'go', { trace: sink, ...deterministic() });
  return [...sink.events];
}

/** The ReAct runtime example's second question: a malformed answer, then a search. */
export async function reactEvents(): Promise<TraceEvent[]> {
  const [, traceparent] = questions;
  const sink = memorySink();
  await run(reactRuntime({ model: fakeLLM(traceparent!.script) }), traceparent!.text, {
    trace: sink,
  });
  return sink.events;
}

/** A refund paused for approval, then rejected with a reason and answered otherwise: one run in two parts. */
export async function approvalEvents(): Promise<TraceEvent[]> {
  const refund = tool({
    name: 'refund',
    description: 'Refund an order',
    input: z.object({ order: z.number(), amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => `refunded ${amount}`,
  });
  const sink = memorySink();
  await runWithApprover(
    agent({
      name: 'desk',
      model: fakeLLM([
        { toolCalls: [{ name: 'refund', args: { order: 42, amount: 80 }, id: 'r1' }] },
        { text: 'I can offer store credit instead.' },
      ]),
      tools: [refund],
    }),
    'Refund order 42',
    rejectTool('refund', 'over the limit', 'ana'),
    { trace: sink, ...deterministic() },
  );
  return sink.events;
}

/** The data pipeline's planned run: a plan whose first step fails, a second plan that completes. */
export async function plannedEvents(): Promise<TraceEvent[]> {
  const sink = memorySink();
  await planAndRun(plannerAgent(), request, {
    tools: pipelineTools,
    trace: sink,
    clock: steppingClock(),
    ids: sequentialIds(),
  });
  return sink.events;
}
