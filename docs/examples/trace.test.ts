// docs/guide/trace.md: a trace written, read back, checked, and summed.
import * as fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import {
  jsonlSink as fileSink,
  readTrace as readFile,
  validateTraceFile as validateFile,
} from '@agent-trace/trace';
import { runTotals } from '@agent-trace/trace/model';
import { expect, it } from 'vitest';
import { supportDesk } from './support-agent.js';

// The page's `traces/run.jsonl` is taken inside a folder of this test.
const dir = mkdtempSync(join(tmpdir(), 'agent-trace-trace-guide-'));
fs.mkdirSync(join(dir, 'traces'));
const jsonlSink = (path: string) => fileSink(join(dir, path));
const readTrace = (path: string) => readFile(join(dir, path));
const validateTraceFile = (path: string) => validateFile(join(dir, path));

it('writes a run, reads it back line by line, validates it and sums it', async () => {
  const desk = supportDesk({
    support: fakeLLM([
      { toolCalls: [{ name: 'lookup_order', args: { orderId: 7 } }] },
      { text: 'Order 7 was delivered.', usage: { promptTokens: 120, completionTokens: 9 } },
    ]),
    billing: fakeLLM([]),
  });

  await run(desk, 'Where is order 7?', { trace: jsonlSink('traces/run.jsonl') });

  const report = await validateTraceFile('traces/run.jsonl');
  report.valid; // true: every start has its end, seq is contiguous, the run is sealed
  const events = [];
  for await (const event of readTrace('traces/run.jsonl')) events.push(event); // one line at a time
  const totals = runTotals(events); // what replay, stats and the viewer add up

  expect(report.valid).toBe(true);
  expect(events.map(event => event.event)).toEqual([
    'run_start',
    'agent_start',
    'llm_start',
    'llm_end',
    'tool_start',
    'tool_end',
    'llm_start',
    'llm_end',
    'agent_end',
    'run_end',
  ]);
  expect(totals).toMatchObject({ llmCalls: 2, toolCalls: 1 });
});
