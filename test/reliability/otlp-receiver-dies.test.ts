import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { startOtlpReceiver } from '@agent-trace/testing/otlp';
import { jsonlSink, readTrace, validateTraceFile } from '@agent-trace/trace';
import { otlpSink } from '@agent-trace/trace/otlp';
import { expect, it } from 'vitest';
import { z } from 'zod';

it('a collector that dies in the middle of a run costs spans, not the run nor the JSONL trace', async () => {
  const collector = await startOtlpReceiver();
  const otlp = otlpSink({ endpoint: collector.url, batchDelayMs: 1, maxBatchSpans: 2 });
  const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-otlp-dies-')), 'run.jsonl');
  const file = jsonlSink(path);
  let step = 0;
  const work = tool({
    name: 'work',
    description: 'Does one piece of work',
    input: z.object({ piece: z.number() }),
    execute: async ({ piece }) => {
      step++;
      if (step === 2) await collector.waitForSpans(2); // some spans made it
      if (step === 4) await collector.close(); // then the collector dies
      return `piece ${piece} done`;
    },
  });
  const model = fakeLLM([
    ...Array.from({ length: 6 }, (_, piece) => ({
      toolCalls: [{ name: 'work', args: { piece } }],
    })),
    { text: 'done' },
  ]);
  const worker = agent({
    name: 'worker',
    model,
    tools: [work],
    limits: { maxToolCallsPerTool: 10 },
  });
  const result = await run(worker, 'go', {
    trace: [file, otlp],
  });
  await file.close();
  await otlp.shutdown();

  expect(result).toMatchObject({ stopReason: 'completed', output: 'done', traceErrors: [] });
  expect((await validateTraceFile(path)).problems).toEqual([]);
  const { exported, failed, dropped } = otlp.stats;
  expect(collector.spans.length).toBeGreaterThanOrEqual(2); // what arrived before it died
  expect(failed + dropped).toBeGreaterThan(0);
  let spans = 0;
  for await (const event of readTrace(path)) if (event.event.endsWith('_start')) spans++;
  expect(exported + failed + dropped).toBe(spans); // every span accounted for
});
