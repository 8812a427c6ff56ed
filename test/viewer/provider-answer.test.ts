/**
 * A model call streamed over a provider's wire, in the viewer's inspector (Chromium) and in
 * replay: the answer's id and server, the model that answered, when the first chunk came.
 */
import { agent, stream } from '@agent-trace/core';
import { openai } from '@agent-trace/core/openai';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { memorySink } from '@agent-trace/trace';
import { traceView, viewerHtml } from '@agent-trace/viewer';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { useMswServer } from '../support/provider-wire.js';
import { chromiumForFile, openPage, scratchFolder, text, writeTrace } from './viewer-support.js';

const server = useMswServer();
const browser = chromiumForFile();

describe("a provider's answer, in the viewer and replay", () => {
  it('shows the response id, the server and the first chunk of a streamed call', async () => {
    server.use(...openaiHandlers([{ text: 'Oslo is cold today.' }]));
    const trace = memorySink();
    const desk = agent({
      name: 'desk',
      model: openai('gpt-4o-mini', { apiKey: 'test-key', baseURL: 'http://llm.test/v1' }),
    });
    const streaming = stream(desk, 'Is Oslo cold?', { trace });
    for await (const _chunk of streaming);
    await streaming.result;
    const folder = scratchFolder();
    const file = writeTrace(join(folder, 'streamed.jsonl'), trace.events);

    const page = await openPage(browser(), viewerHtml(await traceView([file])), folder);
    const call = trace.events.find(event => event.event === 'llm_start')!;
    await page.locator(`.waterfall-rows .row[data-seq="${call.seq}"]`).click();
    const inspector = await text(page.locator('.inspector'));
    expect(inspector).toContain('fake_1 · llm.test:80');
    expect(inspector).toMatch(/first chunk after \d+ ms · \d+ chunks/);
    await page.close();

    const replay = await cli(['replay', file]);
    expect(replay.stdout).toMatch(/llm #1 {2}gpt-4o-mini .* first chunk \d+ ms/);
  });
});
