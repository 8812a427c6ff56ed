/**
 * The `release` run option: the application's release (a git commit, a tag, a build) is written
 * on `run_start`, by `run()` and by a bridge's recorder, so a dataset case made of the run names
 * the code it was recorded at. A rerun made by another release still says *same*.
 */
import { agentTraceTelemetry, aiSdkModel } from '@agent-trace/ai-sdk';
import { ConfigurationError, run, type TraceEvent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink, rerunTrace, validateTrace } from '@agent-trace/trace';
import { generateText } from 'ai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRuns } from '../../packages/viewer/app/model/run-model.js';
import type { ListRows } from '../../packages/viewer/app/model/run-rows.js';
import { smallDesk } from '../fixtures/agents/small-desk.js';
import { cli } from '../support/cli.js';

const startOf = (events: readonly TraceEvent[]) =>
  events.find(event => event.event === 'run_start');

describe('the release a run was made by', () => {
  it('is written on run_start, and a rerun under another release says same', async () => {
    const sink = memorySink();
    await run(smallDesk(), 'Weather in Paris', { trace: sink, release: '3f2a9c1' });
    expect(startOf(sink.events)).toMatchObject({ event: 'run_start', release: '3f2a9c1' });
    expect(validateTrace(sink.events).problems).toEqual([]);

    const rerun = memorySink();
    const report = await rerunTrace(sink.events, smallDesk(), {
      run: { release: '9d8e7f6', trace: rerun },
    });
    expect(report.differences).toEqual([]);
    expect(startOf(rerun.events)).toMatchObject({ release: '9d8e7f6' });
    const changed = await rerunTrace(sink.events, smallDesk('Only ever answer.'), {
      run: { release: '9d8e7f6' },
    });
    expect(changed.differences.length).toBeGreaterThan(0);
  });

  it('is shown by replay on the run line, and by the viewer on the run row', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'release-')), 'run.jsonl');
    const sink = jsonlSink(file);
    await run(smallDesk(), 'Weather in Paris', { trace: sink, release: '3f2a9c1' });
    await sink.close();
    const replay = await cli(['replay', file]);
    expect(replay.stdout.split('\n').find(line => line.startsWith('run '))).toContain(
      'release 3f2a9c1',
    );
    const memory = memorySink();
    await run(smallDesk(), 'Weather in Paris', { trace: memory, release: '3f2a9c1' });
    const [shown] = buildRuns(memory.events);
    expect((shown!.rows as ListRows).list[0]!.summary).toContain('release 3f2a9c1');
  });

  it('is left out when not given', async () => {
    const sink = memorySink();
    await run(smallDesk(), 'Weather in Paris', { trace: sink });
    expect(startOf(sink.events)).not.toHaveProperty('release');
  });

  it('refuses an empty or over-long release, naming the option and how to fix it', async () => {
    for (const release of ['', 'x'.repeat(201)]) {
      const sink = memorySink();
      const made = run(smallDesk(), 'Weather in Paris', { trace: sink, release });
      await expect(made).rejects.toBeInstanceOf(ConfigurationError);
      await expect(made).rejects.toThrow(/release.*1 to 200 characters.*GIT_COMMIT/s);
      expect(sink.events).toEqual([]);
    }
  });

  it('is written by a bridge recorder given one, and refused there when wrong', async () => {
    const trace = memorySink();
    const telemetry = agentTraceTelemetry({ trace, release: 'v2.4.0' });
    await generateText({
      model: aiSdkModel(fakeLLM([{ text: 'Hello.' }])),
      prompt: 'Hi',
      telemetry: { integrations: [telemetry] },
    });
    await telemetry.flush();
    expect(startOf(trace.events)).toMatchObject({ release: 'v2.4.0' });
    expect(() => agentTraceTelemetry({ trace, release: '' })).toThrow(/Invalid release/);
  });
});
