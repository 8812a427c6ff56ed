import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonlSink, memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { recordForecast } from '../fixtures/agents/ai-sdk-forecaster.js';
import { cli } from '../support/cli.js';

/** Records the forecaster, on a script, into a JSONL file. */
async function recorded(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-ai-sdk-cli-')), 'forecast.jsonl');
  const sink = jsonlSink(file);
  await recordForecast(sink);
  await sink.close();
  return file;
}

describe('agent-trace on an AI SDK agent', () => {
  it('rerun --agent takes a module exporting aiSdkAgent(...): the same code is the same, a change is named', async () => {
    const file = await recorded();
    const same = await cli(['rerun', file, '--agent', 'test/fixtures/agents/ai-sdk-forecaster.ts']);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('same behaviour: no divergence');
    expect(same.stdout).toContain('stop: completed');
    const changed = await cli([
      'rerun',
      file,
      '--agent',
      'test/fixtures/agents/ai-sdk-forecaster-changed.ts',
    ]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain("diverged at seq 2, agent 'forecaster'");
    expect(changed.stdout).toContain(
      'changed:  the instructions: Use the weather tool{+; answer in Fahrenheit+}.',
    );
  });

  it('replays, validates and shows stats of a recorded AI SDK run, and writes it as a viewer page', async () => {
    const file = await recorded();
    expect((await cli(['validate', file])).code).toBe(0);
    const replay = await cli(['replay', file]);
    expect(replay.stdout).toContain('agent forecaster  fake/fake-model  2 steps  completed');
    // Two recordings of the same behaviour are the same to diff, whatever their ids and times.
    expect((await cli(['diff', file, await recorded()])).code).toBe(0);
    const page = join(mkdtempSync(join(tmpdir(), 'agent-trace-ai-sdk-page-')), 'forecast.html');
    const view = await cli(['view', file, '--out', page, '--no-open']);
    expect(view.code).toBe(0);
  });

  it('is read by the trace matchers as any run', async () => {
    const trace = memorySink();
    await recordForecast(trace);
    expect(trace.events).toBeWellFormedTrace();
    expect(trace.events).toHaveCalledTool('weather', { city: 'Oslo' });
    expect(trace.events).toHaveToolSequence(['weather']);
    expect(trace.events).toHaveStopReason('completed');
    expect(trace.events).toHaveNoErrors();
  });
});
