// docs/guide/cli.md: what `agent-trace replay` prints for the demo, checked against the page, and
// the other commands on the same trace.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '@agent-trace/core';
import { startOtlpReceiver } from '@agent-trace/testing/otlp';
import { jsonlSink } from '@agent-trace/trace';
import { beforeAll, expect, it } from 'vitest';
import { reviewDesk } from '../../examples/document-review/agents.js';
import { draft } from '../../examples/document-review/draft.js';
import { cli } from '../../test/support/cli.js';

const page = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../guide/cli.md'), 'utf8');
const trace = join(mkdtempSync(join(tmpdir(), 'agent-trace-cli-guide-')), 'demo.jsonl');

/** The output with what changes from run to run (ids, times, durations) replaced. */
const stable = (text: string) =>
  text
    .replace(/run [0-9a-f-]{36} {2}\S+/g, 'run <id>  <time>')
    .replace(/\b\d+ ms\b/g, '<ms>')
    .trimEnd();

beforeAll(async () => {
  // The demo's run, as `pnpm demo` writes traces/demo.jsonl.
  await run(reviewDesk(), `Review this draft: ${draft}`, {
    trace: jsonlSink(trace),
    session: 'demo',
  });
});

it('replays the demo as the page shows it', async () => {
  const shown = /```text\n\$ agent-trace replay traces\/demo\.jsonl\n([\s\S]*?)```/.exec(page)?.[1];
  const { code, stdout } = await cli(['replay', trace]);
  expect(code).toBe(0);
  expect(stable(stdout)).toBe(stable(shown ?? ''));
});

it('validates, sums, diffs and exports the same trace', async () => {
  expect((await cli(['validate', trace])).code).toBe(0);
  const stats = await cli(['stats', trace]);
  expect(stats.stdout).toContain('coordinator');
  const diff = await cli(['diff', trace, trace]);
  expect(diff.code).toBe(0); // a trace against itself: no difference
  const collector = await startOtlpReceiver();
  const exported = await cli(['export', trace, '--otlp', collector.url]);
  expect(exported.code).toBe(0);
  expect(collector.spans.some(span => span.name === 'invoke_agent evaluator')).toBe(true);
  await collector.close();
});
