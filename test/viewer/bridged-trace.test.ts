import { memorySink } from '@agent-trace/trace';
import { traceView, viewerHtml } from '@agent-trace/viewer';
import { describe, expect, it } from 'vitest';
import { recordForecast } from '../fixtures/agents/ai-sdk-forecaster.js';
import { chromiumForFile, openPage, scratchFolder, text, writeTrace } from './viewer-support.js';
import { join } from 'node:path';

const browser = chromiumForFile();

describe('a trace recorded from an AI SDK agent, in Chromium', () => {
  it('renders like any run: its agent, model calls and tool call in the waterfall, the call in the inspector', async () => {
    const trace = memorySink();
    await recordForecast(trace);
    const folder = scratchFolder();
    const file = writeTrace(join(folder, 'forecast.jsonl'), trace.events);
    const page = await openPage(browser(), viewerHtml(await traceView([file])), folder);
    expect(await page.locator('.waterfall-rows .row').count()).toBeGreaterThanOrEqual(5);
    const toolStart = trace.events.find(event => event.event === 'tool_start')!;
    await page.locator(`.waterfall-rows .row[data-seq="${toolStart.seq}"]`).click();
    const inspector = await text(page.locator('.inspector'));
    expect(inspector).toContain('weather');
    expect(inspector).toContain('Oslo');
    await page.close();
  });
});
