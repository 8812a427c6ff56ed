import { describe, expect, it } from 'vitest';
import { isSpanStart } from '@agent-trace/core/spans';
import { viewerHtml } from '@agent-trace/viewer';
import { allRowSeqs, chromiumForFile, openPage, plannedEvents, text } from './viewer-support.js';

const browser = chromiumForFile();

describe('a planned workflow in the viewer, in Chromium', () => {
  it('shows the plans, the workflows, their steps and what each step did', async () => {
    const events = await plannedEvents();
    const viewer = await openPage(
      browser(),
      viewerHtml({
        mode: 'trace',
        title: 'plan',
        files: [{ name: 'p.jsonl', events, warnings: [] }],
      }),
    );
    const expected = events
      .filter(event => isSpanStart(event.event) || event.event === 'plan')
      .map(event => event.seq);
    expect([...(await allRowSeqs(viewer))].sort((a, b) => a - b)).toEqual(expected);
    expect(await viewer.locator('.waterfall-rows .row.kind-plan').count()).toBe(2);
    expect(await viewer.locator('.waterfall-rows .row.kind-workflow').count()).toBe(2);

    const failed = events.find(
      event => event.event === 'workflow_step_end' && event.status === 'failed',
    )!;
    const failedRow = viewer.locator(
      `.waterfall-rows .row[data-seq="${events.find(event => event.span_id === failed.span_id)!.seq}"]`,
    );
    await expect.poll(() => failedRow.getAttribute('class')).toContain('status-error');
    await failedRow.click();
    const inspector = viewer.locator('aside.inspector');
    await expect.poll(() => text(inspector)).toContain('there is no sales-2026.csv');
    expect(await text(inspector)).toContain('tool data_collector');

    const parallel = events.find(
      event => event.event === 'workflow_step_start' && event.items !== undefined,
    )!;
    await viewer.locator(`.waterfall-rows .row[data-seq="${parallel.seq}"]`).click();
    await expect.poll(() => text(inspector)).toContain('4 items at once');

    const firstPlan = events.find(event => event.event === 'plan')!;
    await viewer.locator(`.waterfall-rows .row[data-seq="${firstPlan.seq}"]`).click();
    await expect
      .poll(() => text(inspector.getByLabel('Plan', { exact: true })))
      .toContain('sales-2026.csv');

    const workflow = events.findLast(event => event.event === 'workflow_start')!;
    await viewer.locator(`.waterfall-rows .row[data-seq="${workflow.seq}"]`).click();
    await expect
      .poll(() => text(inspector.getByLabel('Workflow steps')))
      .toContain('analyse · tool region_analyzer · after clean · for each of steps.clean.output');
    expect(await text(inspector)).toContain('4 completed, 0 failed, 0 skipped');
    await viewer.close();
  });
});
