/**
 * `pnpm screenshots:phoenix`: the pictures of Arize Phoenix's trace view in docs/images/, made by
 * exporting the demo's multi-agent run to a real Phoenix (installed by
 * `scripts/backends/phoenix.sh`, started on 127.0.0.1) with `openInference: true`, and opening
 * its UI in the Chromium the viewer's tests use. The OpenTelemetry guide shows them.
 */
import { join, resolve } from 'node:path';
import { run } from '@agent-trace/core';
import { memorySink } from '@agent-trace/trace';
import { otlpSink } from '@agent-trace/trace/otlp';
import { reviewDesk } from '../examples/document-review/agents.js';
import { draft } from '../examples/document-review/draft.js';
import { findChromium, launchBrowser } from '../test/support/browser.js';
import {
  phoenixTracePage,
  readPhoenixTrace,
  startPhoenix,
} from '../test/backends/support/phoenix.js';

const out = resolve('docs/images');
const project = 'agent-trace-demo';
const phoenix = await startPhoenix();
try {
  const memory = memorySink();
  const sink = otlpSink({
    endpoint: phoenix.url,
    protocol: 'http',
    captureContent: true,
    openInference: true,
    serviceName: project,
  });
  const result = await run(reviewDesk(), `Review this draft: ${draft}`, {
    trace: [memory, sink],
    session: 'demo',
  });
  await sink.shutdown();
  const traceId = memory.events.find(event => event.run === result.runId)!.trace_id;
  await readPhoenixTrace(phoenix.url, project, traceId, 37);
  const traceView = await phoenixTracePage(phoenix.url, project, traceId);
  const browser = await launchBrowser(await findChromium());
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
    await page.goto(traceView);
    await page.getByText('invoke_workflow coordinator', { exact: true }).first().waitFor();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(out, 'phoenix-trace.png') });
    process.stdout.write('wrote docs/images/phoenix-trace.png\n');
    await page.getByText('chat gpt-4o-mini', { exact: true }).first().click();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(out, 'phoenix-llm.png') });
    process.stdout.write('wrote docs/images/phoenix-llm.png\n');
  } finally {
    await browser.close();
  }
} finally {
  await phoenix.stop();
}
