/**
 * The golden trace of a run judged after its end: the run, online scoring's evaluation, then the
 * feedback the CLI or an app appends (a score, a label, a comment, who), valid by the trace rules. After an intended change:
 * UPDATE_GOLDEN=1, check the diff of golden/, commit it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, sequentialIds, steppingClock, type TraceEvent } from '@agent-trace/core';
import { compareGoldenTrace } from '@agent-trace/testing';
import { jsonlSink, recordFeedback, validateTraceFile } from '@agent-trace/trace';
import { onlineScoring, toolErrorRate } from '@agent-trace/evals';
import { expect, it } from 'vitest';
import { smallDesk } from '../fixtures/agents/small-desk.js';

const directory = fileURLToPath(new URL('../../golden', import.meta.url));

it('a run scored online, then judged by two people, matches its golden trace', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'feedback-golden-')), 'desk.jsonl');
  const ids = sequentialIds();
  const sink = jsonlSink(file);
  const now = () => new Date('2026-11-28T09:00:00.000Z');
  const scoring = onlineScoring({ scorers: [toolErrorRate()], to: sink, now });
  const result = await run(smallDesk(), 'Weather in Paris', {
    trace: [sink, scoring],
    clock: steppingClock(),
    ids,
    session: 'feedback',
    release: '3f2a9c1',
  });
  await scoring.drain();
  await sink.close();
  await recordFeedback(
    file,
    {
      run: result.runId,
      score: -1,
      label: 'wrong-order',
      comment: 'It sent the weather, not my order.',
      by: 'ana',
    },
    { ids, now },
  );
  await recordFeedback(
    file,
    { run: result.runId, score: 5, by: 'qa' },
    { ids, now, source: 'cli' },
  );
  expect((await validateTraceFile(file)).problems).toEqual([]);
  const events = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map(line => JSON.parse(line) as TraceEvent);
  expect(events.filter(event => event.event === 'feedback')).toHaveLength(2);
  expect(events.filter(event => event.event === 'evaluation')).toHaveLength(1);
  expect(['matched', 'written']).toContain(compareGoldenTrace('feedback', events, { directory }));
});
