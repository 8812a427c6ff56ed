// docs/guide/viewer.md: the commands of the page, on the demo's trace: a page written to a file,
// two traces diffed on one page, and a page refused past the page limit.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import { beforeAll, expect, it } from 'vitest';
import { reviewDesk } from '../../examples/document-review/agents.js';
import { draft, revisedDraft } from '../../examples/document-review/draft.js';
import { cli } from '../../test/support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-trace-viewer-guide-'));
const before = join(dir, 'before.jsonl');
const after = join(dir, 'after.jsonl');

beforeAll(async () => {
  await run(reviewDesk(), `Review this draft: ${draft}`, { trace: jsonlSink(before) });
  await run(reviewDesk(), `Review this draft: ${revisedDraft}`, { trace: jsonlSink(after) });
});

it('writes one self-contained page: the events inlined, nothing fetched', async () => {
  const page = join(dir, 'demo.html');
  const { code } = await cli(['view', before, '--out', page, '--no-open']);
  expect(code).toBe(0);
  const html = readFileSync(page, 'utf8');
  expect(html).toContain('id="agent-trace-data"');
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href="http/);
});

it('puts two traces on one page, run by run', async () => {
  const page = join(dir, 'diff.html');
  const { code } = await cli(['view', before, '--diff', after, '--out', page, '--no-open']);
  expect(code).toBe(0);
  expect(readFileSync(page, 'utf8')).toContain('id="agent-trace-data"');
});

it('refuses to write a page of a trace past the page limit, and says how to serve it', async () => {
  const page = join(dir, 'big.html');
  const { code, stderr } = await cli([
    'view',
    before,
    '--out',
    page,
    '--max-page-mb',
    '0.001',
    '--no-open',
  ]);
  expect(code).toBe(2);
  expect(stderr).toContain(`agent-trace view ${before} (without --out`);
  expect(stderr).toContain(`agent-trace serve ${dir}`);
});
