import { memorySink } from '@agent-trace/trace';
import { importSpans, spansFromOtlpJson } from '@agent-trace/trace/import';
import { traceView, viewerHtml } from '@agent-trace/viewer';
import { describe, expect, it } from 'vitest';
import { recordForecast } from '../fixtures/agents/ai-sdk-forecaster.js';
import { recordForecaster } from '../fixtures/agents/langgraph-desk.js';
import { recordDesk } from '../fixtures/agents/openai-agents-desk.js';
import { deskApiSpans } from '../fixtures/otlp/desk-api-spans.js';
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

describe('traces recorded from Agents SDK and LangGraph agents, in Chromium', () => {
  it.each([
    ['the OpenAI Agents SDK desk (a handoff, an agent used as a tool)', recordDesk, 26],
    ['the LangGraph forecaster (the prebuilt ReAct agent asking another)', recordForecaster, 20],
  ] as const)(
    '%s renders every span in the waterfall, a nested tool call in the inspector',
    async (_name, record, events) => {
      const trace = memorySink();
      await record(trace);
      expect(trace.events).toHaveLength(events);
      const folder = scratchFolder();
      const file = writeTrace(join(folder, 'run.jsonl'), trace.events);
      const page = await openPage(browser(), viewerHtml(await traceView([file])), folder);
      const spans = trace.events.filter(event => event.event.endsWith('_start')).length;
      expect(await page.locator('.waterfall-rows .row').count()).toBeGreaterThanOrEqual(spans - 1);
      const weather = trace.events.find(
        event => event.event === 'tool_start' && (event as { tool: string }).tool === 'weather',
      )!;
      await page.locator(`.waterfall-rows .row[data-seq="${weather.seq}"]`).click();
      const inspector = await text(page.locator('.inspector'));
      expect(inspector).toContain('weather');
      expect(inspector).toContain('Oslo');
      await page.close();
    },
  );
});

describe('an imported trace with plain spans, in Chromium', () => {
  it("shows another system's spans in the tree, their attributes in the inspector, a failed one as an error", async () => {
    const { events } = importSpans(spansFromOtlpJson(deskApiSpans));
    const folder = scratchFolder();
    const file = writeTrace(join(folder, 'imported.jsonl'), events);
    const page = await openPage(browser(), viewerHtml(await traceView([file])), folder);
    const rowOf = (name: string) => {
      const start = events.find(event => event.event === 'span_start' && event.name === name)!;
      return page.locator(`.waterfall-rows .row[data-seq="${start.seq}"]`);
    };
    expect(await text(rowOf('POST /chat'))).toContain('span POST /chat');
    await expect.poll(() => rowOf('GET /carrier').getAttribute('class')).toContain('status-error');
    await rowOf('SELECT orders').click();
    const inspector = await text(page.locator('.inspector'));
    expect(inspector).toContain('client');
    expect(inspector).toContain('db.query.text');
    expect(inspector).toContain('SELECT status FROM orders WHERE id = $1');
    await page.close();
  });
});
