import { describe, expect, it } from 'vitest';
import { type TraceEvent } from '@agent-trace/core';
import { isSpanStart } from '@agent-trace/core/spans';
import { viewerHtml } from '@agent-trace/viewer';
import {
  allRowSeqs,
  approvalEvents,
  deskEvents,
  flakyToolEvents,
  chromiumForFile,
  longRunEvents,
  markupEvents,
  openPage,
  reactEvents,
  text,
} from './viewer-support.js';

const browser = chromiumForFile();

const page = (events: readonly TraceEvent[]) =>
  openPage(
    browser(),
    viewerHtml({
      mode: 'trace',
      title: 'test',
      files: [{ name: 't.jsonl', events, warnings: [] }],
    }),
  );

describe('the trace page, in Chromium', () => {
  it("shows every span and point event of the demo's trace as a waterfall row", async () => {
    const events = await deskEvents();
    const viewer = await page(events);
    const expected = events
      .filter(
        event => isSpanStart(event.event) || event.event === 'guardrail' || event.event === 'retry',
      )
      .map(event => event.seq);
    expect(expected.length).toBeGreaterThan(30);
    expect([...(await allRowSeqs(viewer))].sort((a, b) => a - b)).toEqual(expected);
    await expect.poll(() => text(viewer.locator('.totals'))).toContain('15');
    await viewer.close();
  });

  it("shows a ReAct run: the malformed answer as a marker, the tool call's thought", async () => {
    const events = await reactEvents();
    const viewer = await page(events);
    const malformed = events.find(event => event.event === 'malformed_answer')!;
    const row = viewer.locator(`.waterfall-rows .row[data-seq="${malformed.seq}"]`);
    await expect.poll(() => row.getAttribute('class')).toContain('status-warn');
    expect(await text(row)).toContain('malformed answer 1 (invalid_json)');
    await row.click();
    const inspector = viewer.locator('aside.inspector');
    await expect.poll(() => text(inspector)).toContain('TOLD TO THE MODEL');
    expect(await text(inspector)).toContain("The Action Input of 'search' is not valid JSON");
    const toolStart = events.find(event => event.event === 'tool_start')!;
    await viewer.locator(`.waterfall-rows .row[data-seq="${toolStart.seq}"]`).click();
    await expect.poll(() => text(inspector)).toContain('THOUGHT');
    expect(await text(inspector)).toContain('The input must be JSON.');
    await viewer.close();
  });

  it('shows a run paused for approval and resumed: both parts, the request and the decision', async () => {
    const events = await approvalEvents();
    const viewer = await page(events);
    expect(await viewer.locator('.waterfall-rows .row.kind-run').count()).toBe(2);
    const requested = events.find(event => event.event === 'approval_requested')!;
    const resolved = events.find(event => event.event === 'approval_resolved')!;
    expect(await text(viewer.locator(`.row[data-seq="${requested.seq}"]`))).toContain(
      'waits for approval: refund',
    );
    const decision = viewer.locator(`.row[data-seq="${resolved.seq}"]`);
    await expect.poll(() => decision.getAttribute('class')).toContain('status-error');
    await decision.click();
    const inspector = viewer.locator('aside.inspector');
    await expect.poll(() => text(inspector)).toContain('rejected');
    expect(await text(inspector)).toContain('ana');
    expect(await text(inspector)).toContain('over the limit');
    await viewer.close();
  });

  it('clicking a model call shows its new messages and its answer in the inspector', async () => {
    const events = await deskEvents();
    const viewer = await page(events);
    const call = events.find(
      (event): event is Extract<TraceEvent, { event: 'llm_start' }> =>
        event.event === 'llm_start' && event.agent === 'drafting' && event.step === 2,
    )!;
    await viewer.locator(`.waterfall-rows .row[data-seq="${call.seq}"]`).click();
    const inspector = viewer.locator('aside.inspector');
    await expect.poll(() => inspector.getAttribute('data-seq')).toBe(String(call.seq));
    const messages = inspector.getByTestId('request-messages');
    // The new messages of the second call: the first answer's tool call and the zod error it got back.
    await expect.poll(() => messages.locator('.message').count()).toBe(call.messages.length);
    await expect.poll(() => text(messages)).toContain('count_words');
    await expect.poll(() => text(messages)).toContain('expected string');
    await expect.poll(() => text(inspector.getByTestId('answer'))).toContain('count_words');
    await expect.poll(() => text(inspector)).toContain('190 in → 30 out');
    await viewer.close();
  });

  it("lists a tool call's attempts, and only its own", async () => {
    const events = await flakyToolEvents();
    const viewer = await page(events);
    const starts = events.filter(event => event.event === 'tool_start');
    expect(starts.length).toBe(2);
    await viewer.locator(`.waterfall-rows .row[data-seq="${starts[1]!.seq}"]`).click();
    const inspector = viewer.locator('aside.inspector');
    await expect.poll(() => text(inspector)).toContain('ATTEMPTS');
    expect(await text(inspector)).toContain('connection reset');
    expect(await inspector.locator('.field', { hasText: /^attempt \d/ }).count()).toBe(2);
    await viewer.close();
    const desk = await page(await deskEvents());
    await desk.locator('.row.kind-tool.status-error').click();
    expect(await text(desk.locator('aside.inspector'))).not.toContain('ATTEMPTS');
    await desk.close();
  });

  it('shows markup in a tool result or a model answer as text: a <script> payload stays inert', async () => {
    const events = await markupEvents();
    const viewer = await page(events);
    const toolStart = events.find(event => event.event === 'tool_start')!;
    await viewer.locator(`.waterfall-rows .row[data-seq="${toolStart.seq}"]`).click();
    const result = viewer.getByTestId('tool-result');
    await expect
      .poll(() => text(result))
      .toContain('<script>window.__pwned = \\"script\\"</script>');
    expect(await result.locator('script, img, b').count()).toBe(0);
    const answer = events.findLast(event => event.event === 'llm_start')!;
    await viewer.locator(`.waterfall-rows .row[data-seq="${answer.seq}"]`).click();
    await expect.poll(() => text(viewer.getByTestId('answer'))).toContain('<img src="x" onerror=');
    expect(
      await viewer.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned),
    ).toBeUndefined();
    // The page holds its own two scripts (the data and the viewer), no third.
    expect(await viewer.locator('script').count()).toBe(2);
    await viewer.close();
  });

  it('collapses a span and filters runs by stop reason, agent and errors', async () => {
    const events = [...(await deskEvents()), ...(await markupEvents())];
    const viewer = await page(events);
    await expect.poll(() => viewer.locator('.run-item').count()).toBe(2);
    await viewer.getByLabel('Agent').selectOption('guard');
    await expect.poll(() => viewer.locator('.run-item').count()).toBe(1);
    await expect.poll(() => text(viewer.locator('.run-item'))).toContain('coordinator');
    await viewer.getByLabel('Agent').selectOption('');
    await viewer.getByLabel('with errors only').check();
    await expect.poll(() => text(viewer.locator('.run-count'))).toContain('1 of 2 runs');
    await viewer.getByLabel('with errors only').uncheck();
    await viewer.locator('.run-item', { hasText: 'coordinator' }).click();
    const rows = viewer.locator('.waterfall-rows .row');
    const before = await rows.count();
    await viewer.locator('.row.kind-handoff .twisty').first().click();
    expect(await rows.count()).toBeLessThan(before);
    await viewer.close();
  });

  it('keeps a 10,000-row run to a screenful of rows in the DOM', async () => {
    const steps = 5000;
    const events = await longRunEvents(steps);
    const viewer = await page(events);
    await expect
      .poll(() => text(viewer.locator('.toolbar')))
      .toContain(`of ${events.filter(e => isSpanStart(e.event)).length} rows`);
    expect(await viewer.locator('.waterfall-rows .row').count()).toBeLessThan(80);
    await viewer.locator('.waterfall-rows').evaluate(element => {
      element.scrollTop = element.scrollHeight;
    });
    await expect
      .poll(() =>
        viewer
          .locator(`.row[data-seq="${events.findLast(event => event.event === 'llm_start')!.seq}"]`)
          .isVisible(),
      )
      .toBe(true);
    await viewer.close();
  });
});
