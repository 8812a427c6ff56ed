/**
 * What judges a run after its end in the page's model: people's feedback and online scoring's
 * evaluations are the run's (its feedback list, its evaluations on the entry agent), never rows
 * of its tree, and never stretch its duration (feedback may come days later).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, steppingClock, type TraceEvent } from '@agent-trace/core';
import { onlineScoring, toolErrorRate } from '@agent-trace/evals';
import { jsonlSink, recordFeedback } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { buildRuns } from '../../packages/viewer/app/model/run-model.js';
import { smallDesk } from '../fixtures/agents/small-desk.js';

describe('judgments in the page model', () => {
  it('are the run’s feedback and evaluations, not rows, and do not stretch it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'judgments-model-')), 'desk.jsonl');
    const sink = jsonlSink(file);
    const scoring = onlineScoring({ scorers: [toolErrorRate()], to: sink });
    const result = await run(smallDesk(), 'Weather in Paris', {
      trace: [sink, scoring],
      clock: steppingClock({ startMs: Date.parse('2026-11-01T09:00:00Z') }),
    });
    await scoring.drain();
    await sink.close();
    const later = () => new Date('2026-11-20T09:00:00Z');
    await recordFeedback(file, { run: result.runId, score: -1, by: 'ana' }, { now: later });
    const events = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map(line => JSON.parse(line) as TraceEvent);
    const [model] = buildRuns(events);
    const without = buildRuns(
      events.filter(event => event.event !== 'feedback' && event.event !== 'evaluation'),
    )[0]!;
    expect(model!.rows.count).toBe(without.rows.count);
    expect(model!.totals).toEqual(without.totals);
    expect(model!.lastAt).toBe(without.lastAt);
    expect(model!.feedback).toMatchObject([
      { score: -1, by: 'ana', source: 'code', text: 'feedback -1 (thumbs down) · by ana via code' },
    ]);
    const entry = events.find(event => event.event === 'agent_start')!;
    expect(model!.evaluations).toEqual([
      {
        spanId: entry.span_id,
        name: 'tool_errors',
        score: 1,
        label: 'pass',
        explanation: '0 of 1 tool calls failed',
      },
    ]);
  });
});
