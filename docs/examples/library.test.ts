/** The example of docs/guide/library.md: a folder of traces, indexed and asked. */
import { TraceLibrary } from '@agent-trace/trace/library';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { writeDeskFolder } from '../../test/support/trace-folder.js';

it('indexes a folder of traces and asks it who refunded and failed, and what cost most', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-guide-library-'));
  const desk = await writeDeskFolder(folder, 2, 6);

  const library = new TraceLibrary(folder);
  await library.update();
  const { rows } = await library.runs({ tool: 'refund', stop: 'failed', sort: 'cost' });
  const expensive = await library.query(
    'SELECT run, cost_usd FROM runs ORDER BY cost_usd DESC LIMIT 20',
  );

  expect(rows.map(row => row.run).sort()).toEqual(desk.refund_fails);
  expect(expensive.rows).toHaveLength(12);
  expect(desk.refund_fails).toContain(expensive.rows[0]!.run);
});
