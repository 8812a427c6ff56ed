/**
 * A conversation in the viewer, in Chromium: a turn's run opens the conversation's transcript (what
 * each customer said and the desk answered, turn by turn), each turn opening its own waterfall; the
 * run list names each run's turn. On a page written by `view` and on a served library alike.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import { converse, runEval } from '@agent-trace/evals';
import { memorySink } from '@agent-trace/trace';
import {
  diffView,
  experimentView,
  serveLibrary,
  viewerHtml,
  type ServedViewer,
} from '@agent-trace/viewer';
import { customers, customerUser } from '../../examples/support-desk/customers.js';
import { deskEval } from '../../examples/support-desk/desk-eval.js';
import { deskFeatures, supportDesk } from '../../examples/support-desk/desk.js';
import { plantedPolicies } from '../../examples/support-desk/policies.js';
import { chromiumForFile, openPage, scratchFolder, text, writeTrace } from './viewer-support.js';

/** The ten customers' conversations under `policies`, in the order given. */
async function allConversations(
  order: readonly string[],
  policies?: Parameters<typeof deskFeatures>[0],
): Promise<TraceEvent[]> {
  const trace = memorySink();
  for (const id of order) {
    const customer = customers.find(each => each.id === id)!;
    await converse(supportDesk(), customerUser(customer), {
      id,
      trace,
      features: deskFeatures(policies),
    });
  }
  return trace.events;
}

const browser = chromiumForFile();

/** Three customers' conversations with the support desk: ana (2 turns), dev (4), ivo (3). */
async function conversations(): Promise<TraceEvent[]> {
  const trace = memorySink();
  for (const customer of customers.filter(each => ['ana', 'dev', 'ivo'].includes(each.id)))
    await converse(supportDesk(), customerUser(customer), {
      id: customer.id,
      trace,
      features: deskFeatures(),
    });
  return trace.events;
}

/** The run id of a conversation's turn. */
function runOf(events: readonly TraceEvent[], conversation: string, turn: number): string {
  const start = events.find(
    (event): event is TraceEventOf<'run_start'> =>
      event.event === 'run_start' &&
      event.conversation?.id === conversation &&
      event.conversation.turn === turn,
  );
  if (start === undefined) throw new Error(`no turn ${turn} of ${conversation}`);
  return start.run;
}

/** Opens a turn's run, then the conversation's transcript; gives its lines, turn by turn. */
async function transcriptFrom(page: Page, run: string): Promise<string[]> {
  await page.locator(`.run-item[data-run="${run}"]`).click();
  await page.getByRole('tab', { name: 'Conversation' }).click();
  const turns = page.locator('.transcript .turn');
  await expect.poll(() => turns.count()).toBeGreaterThan(0);
  // One look at the transcript (the test's types hold no DOM): its lines, turn by turn.
  return page.evaluate<string[]>(
    "[...document.querySelectorAll('.transcript .turn')].map(item => [...item.querySelectorAll('.said, .answered')].map(line => (line.textContent ?? '').replace(/\\s+/g, ' ').trim()).join(' | '))",
  );
}

const devTranscript = [
  'user Hello. | support-desk How can I help you today?',
  'user I bought a lamp. | support-desk How can I help you today?',
  'user It is order 44. | support-desk Order 44 (a lamp) is delivered.',
  'user I would like a refund for order 44. | support-desk Refunded $30 for order 44.',
];

describe('a conversation in the viewer, in Chromium', () => {
  let events: TraceEvent[];
  beforeAll(async () => {
    events = await conversations();
  });

  it("shows a turn's conversation as a transcript, each turn opening its waterfall", async () => {
    const page = await openPage(
      browser(),
      viewerHtml({
        mode: 'trace',
        title: 'desk',
        files: [{ name: 'desk.jsonl', events, warnings: [] }],
      }),
    );
    const third = runOf(events, 'dev', 3);
    expect(await text(page.locator(`.run-item[data-run="${third}"]`))).toContain('turn 3');
    expect(await transcriptFrom(page, third)).toEqual(devTranscript);
    expect(await page.locator('.transcript .turn.chosen').getAttribute('data-turn')).toBe('3');
    // The first turn's button opens its run in the waterfall.
    await page.locator('.transcript .turn[data-turn="1"] button').click();
    await expect
      .poll(() => page.getByRole('tab', { name: 'Waterfall' }).getAttribute('aria-selected'))
      .toBe('true');
    expect(await text(page.locator('.run-title'))).toContain(runOf(events, 'dev', 1));
    await page.close();
  });

  it("shows a conversation case's transcript on the experiments page, beside its scores", async () => {
    const today = await runEval(deskEval());
    const planted = await runEval(deskEval(plantedPolicies));
    const page = await openPage(
      browser(),
      viewerHtml(
        await experimentView({ result: planted, id: 'planted' }, { result: today, id: 'today' }),
      ),
    );
    const ana = page.locator('tr[data-case="ana"]');
    expect(await ana.locator('td[data-scorer="goal_reached"]').getAttribute('class')).toContain(
      'change-regressed',
    );
    await ana.locator('details.case-transcript summary').click();
    expect(await text(ana.locator('details.case-transcript'))).toContain('transcript · 3 turns');
    expect(await ana.locator('details.case-transcript li').evaluateAll(items => items.length)).toBe(
      6,
    );
    expect(await text(ana.locator('details.case-transcript li').nth(3))).toBe(
      'agent Order 41 is over $50: a manager will review the refund.',
    );
    await page.close();
  });

  it('compares two recordings of the conversations turn by turn, however their runs are ordered', async () => {
    const ids = customers.map(each => each.id);
    const folder = scratchFolder();
    const before = writeTrace(join(folder, 'before.jsonl'), await allConversations(ids));
    const after = writeTrace(
      join(folder, 'after.jsonl'),
      await allConversations([...ids].reverse(), plantedPolicies),
    );
    const data = await diffView(before, after);
    if (data.mode !== 'diff') throw new Error('a diff page');
    const differ = data.runs
      .filter(pair => pair.steps.some(step => step.kind !== 'same'))
      .map(pair => `${pair.turn?.conversation} ${pair.turn?.turn}`);
    // The planted change shows at each refund turn, and in the turns it added (ana 3, fay 7 and 8, jo 3).
    expect(differ).toEqual([
      'ana 2',
      'dev 4',
      'fay 6',
      'gus 2',
      'jo 2',
      // The turns only the changed recording has, in its order.
      'jo 3',
      'fay 7',
      'fay 8',
      'ana 3',
    ]);
    const page = await openPage(browser(), viewerHtml(data));
    expect(await text(page.getByLabel('Run pairs'))).toContain('turn 2 of ana');
    await page.close();
  });

  describe('served from a library', () => {
    let served: ServedViewer;
    beforeAll(async () => {
      const folder = join(scratchFolder(), 'traces');
      mkdirSync(folder, { recursive: true });
      writeTrace(join(folder, 'desk.jsonl'), events);
      served = await serveLibrary(folder, { pollMs: 50 });
    });
    afterAll(async () => {
      await served.close();
    });

    it("lists the turns and shows a conversation's transcript from the library's index", async () => {
      const page = await browser().newPage({ viewport: { width: 1500, height: 900 } });
      page.setDefaultTimeout(10_000);
      await page.goto(served.url);
      await page.waitForSelector('.run-item');
      // The library lists its conversations; choosing one lists its turns.
      const conversations = page.getByLabel('Conversation', { exact: true });
      await expect.poll(async () => text(conversations)).toContain('ivo · 3 turns · completed');
      expect(await text(conversations)).toContain('dev · 4 turns · completed');
      await conversations.selectOption('ivo');
      await expect.poll(() => page.locator('.run-item').count()).toBe(3);
      const lines = await transcriptFrom(page, runOf(events, 'ivo', 2));
      expect(lines).toEqual([
        'user Where is my stuff?? | support-desk Which order is it? Please give me its number.',
        'user I said where is my order!! | support-desk Which order is it? Please give me its number.',
        'user Order 49, where is it? | support-desk Order 49 (a clock) is shipped.',
      ]);
      await page.close();
    });
  });
});
