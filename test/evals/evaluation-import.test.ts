/**
 * An eval's scores, sent to a backend as evaluation events, read back: `agent-trace import` of an
 * OTLP JSON file holding the runs' spans and the evaluation log records keeps the runs and their
 * scores as an experiment, which `eval view` and `eval list` show as they show the eval's own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setDefaultExport } from '@agent-trace/core/record';
import { exactMatch, noErrors, runEval } from '@agent-trace/evals';
import { ExperimentStore } from '@agent-trace/evals/experiments';
import { otlpSink } from '@agent-trace/trace/otlp';
import { experimentView } from '@agent-trace/viewer';
import { JsonLogsSerializer, JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { scratchFolder } from '../viewer/viewer-support.js';
import { sumsEval } from '../fixtures/evals/sums.js';

const sums = sumsEval([exactMatch(), noErrors()]);

afterEach(() => setDefaultExport(undefined));

/** Runs the eval with an export whose spans and log records are kept, as OTLP JSON lines. */
async function exportedEval(): Promise<{ file: string; means: Record<string, number> }> {
  const spans: ReadableSpan[] = [];
  const records: ReadableLogRecord[] = [];
  const sink = otlpSink({
    exporter: {
      export: (batch, done) => (spans.push(...batch), done({ code: 0 })),
      shutdown: () => Promise.resolve(),
    },
    logExporter: {
      export: (batch, done) => (records.push(...batch), done({ code: 0 })),
      shutdown: () => Promise.resolve(),
      forceFlush: () => Promise.resolve(),
    },
  });
  setDefaultExport({ sinks: () => [sink] });
  const result = await runEval(sums);
  await sink.shutdown();
  const decode = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
  const file = join(scratchFolder(), 'export.json');
  writeFileSync(
    file,
    `${decode(JsonTraceSerializer.serializeRequest(spans))}\n${decode(JsonLogsSerializer.serializeRequest(records))}\n`,
  );
  return { file, means: { ...result.means } };
}

describe('evaluation events read back', () => {
  it('become an experiment of the runs they judge, with the same scores', async () => {
    const { file, means } = await exportedEval();
    const store = scratchFolder();
    const out = join(store, 'imported.jsonl');
    const imported = await cli(['import', file, '--out', out, '--store', store, '--eval', 'sums']);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/kept 4 scores of 2 runs as experiment (\S+) of 'sums'/);

    const experiments = new ExperimentStore({ root: store });
    const [kept] = await experiments.list();
    expect(kept?.eval).toBe('sums');
    const stored = await experiments.result(kept!.id);
    expect(stored.means).toEqual(means);
    const wrong = stored.cases.find(each => each.scores.exact?.score === 0)!;
    expect(wrong.scores.exact!.reason).toContain('8');

    // The experiment view shows the scores on the runs' agents, as for the eval's own.
    const view = await experimentView({ result: stored, id: kept!.id });
    expect(
      view.traces
        .flatMap(trace => trace.evaluations ?? [])
        .map(each => each.name)
        .sort(),
    ).toEqual(['errors', 'errors', 'exact', 'exact']);
  });

  it('a file without evaluation events says so and keeps no experiment', async () => {
    const { file } = await exportedEval();
    const spansOnly = join(scratchFolder(), 'spans.json');
    writeFileSync(spansOnly, `${readFileSync(file, 'utf8').split('\n')[0]}\n`);
    const store = scratchFolder();
    const imported = await cli([
      'import',
      spansOnly,
      '--out',
      join(store, 'x.jsonl'),
      '--store',
      store,
    ]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('no evaluation events (gen_ai.evaluation.result)');
  });
});
