// A model call's time limits (`limits.modelTimeoutMs`, `limits.streamIdleTimeoutMs`) run on the
// run's clock, as a tool's `timeoutMs` does: a rerun's clock keeps them (the recording says
// whether a recorded call ran out of time), so a recorded answer that waits on the virtual clock
// is never cut by a real timer, and a recorded timeout reruns as one.
import { agent, run, stream, type Clock, type TimedWork } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { formatDivergence, memorySink, rerunTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

/** A clock whose limits run out at once for `expires` work, and never for the rest. */
function limitingClock(expires: TimedWork | undefined): Clock & { limits: string[] } {
  const limits: string[] = [];
  let now = Date.UTC(2026, 0, 1);
  return {
    limits,
    now: () => now++,
    sleep: delayMs => {
      now += delayMs;
      return Promise.resolve();
    },
    timer: (delayMs, onTimeout, work) => {
      limits.push(`${work} ${delayMs}`);
      if (work === expires) queueMicrotask(onTimeout);
      return () => undefined;
    },
  };
}

const slowAnswer = (ms: number, text: string) => () =>
  new Promise<{ text: string }>(resolve => setTimeout(() => resolve({ text }), ms));

describe("a model call's time limits, on the run's clock", () => {
  it('asks the clock for modelTimeoutMs and streamIdleTimeoutMs, and times the call out when the clock says so', async () => {
    const clock = limitingClock('model');
    const advisor = agent({
      name: 'advisor',
      instructions: 'Answer.',
      model: fakeLLM([slowAnswer(50, 'late'), { text: 'on time' }], { allowUnusedSteps: true }),
      limits: { modelTimeoutMs: 60_000 },
      retry: { modelAttempts: 1 },
    });
    const result = await run(advisor, 'Hi', { clock });
    expect(clock.limits).toEqual(['model 60000']);
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toMatch(/did not answer within 60000 ms/);

    const streamed = limitingClock(undefined);
    const chunks = stream(advisor, 'Hi', { clock: streamed });
    for await (const _chunk of chunks);
    expect((await chunks.result).stopReason).toBe('completed');
    expect(streamed.limits[0]).toBe('model 60000');
    expect(streamed.limits).toContain('model 120000');
  });

  it('a recorded model timeout reruns as the same, decided by the recording whatever the limit now is', async () => {
    const build = () =>
      agent({
        name: 'advisor',
        instructions: 'Answer.',
        model: fakeLLM([slowAnswer(400, 'too late'), slowAnswer(5, 'fine')], {
          allowUnusedSteps: true,
        }),
        limits: { modelTimeoutMs: 100 },
        retry: { modelAttempts: 2, baseDelayMs: 1 },
      });
    const sink = memorySink();
    const recorded = await run(build(), 'Hi', { trace: sink });
    expect(recorded.stopReason).toBe('completed');
    expect(sink.events.filter(event => event.event === 'llm_end').map(e => e.error?.type)).toEqual(
      ['timeout', undefined],
    );
    const report = await rerunTrace(sink.events, build());
    expect(report.same, report.differences.map(formatDivergence).join('\n')).toBe(true);

    // The rerun's clock keeps model limits: the recording says which call ran out of time.
    const tight = agent({
      name: 'advisor',
      instructions: 'Answer.',
      model: fakeLLM([{ text: 'unused' }], { allowUnusedSteps: true }),
      limits: { modelTimeoutMs: 100 },
      retry: { modelAttempts: 2, baseDelayMs: 1 },
    });
    expect((await rerunTrace(sink.events, tight)).same).toBe(true);
  });
});
