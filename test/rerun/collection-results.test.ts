/**
 * Values JSON writes otherwise than a program holds them: a workflow tool step that gives a
 * sparse array (its holes `null` in the JSONL trace) or a Map and a Set (their entries and values),
 * recorded to a file and rerun with the real tools, is the same.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from '@agent-trace/core';
import { runWorkflow, workflow } from '@agent-trace/core/workflow';
import { formatDivergence, jsonlSink, rerunTrace } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';

const build = () => {
  const week = tool({
    name: 'week',
    description: 'Units sold each day (a hole: the shop was closed)',
    input: z.object({}),
    // eslint-disable-next-line no-sparse-arrays
    execute: () => [3, , 5],
  });
  const shelves = tool({
    name: 'shelves',
    description: 'Shelves and their tags',
    input: z.object({}),
    execute: () => ({ shelves: new Map([['a', 4]]), tags: new Set(['lamp']) }),
  });
  return workflow({
    name: 'report',
    steps: [
      { name: 'week', tool: week },
      { name: 'shelves', tool: shelves },
    ],
  });
};

it('a sparse array, a Map and a Set from workflow steps rerun with the real tools as the same', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-collections-')), 'run.jsonl');
  const sink = jsonlSink(file);
  await runWorkflow(build(), {}, { trace: sink });
  await sink.close();
  const report = await rerunTrace(file, build(), { liveTools: true });
  expect(report.firstDivergence && formatDivergence(report.firstDivergence)).toBeUndefined();
});
