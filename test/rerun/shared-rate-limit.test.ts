// Runs that share a provider's rate limit: a run's wait behind another run's calls is the outside
// world, recorded on its `rate_limit_wait` (`by_others`), and a rerun, whose limiter holds only its
// own calls, waits at least that long. Before, the second of two runs sharing a limit of one
// request a minute reran without the wait: its breaker, opened by a 429, had not cooled down when
// the retry came, and an unchanged run said "the model fails: circuit_open" where it had been sent.
import { agent, ModelCallError, run, steppingClock, type TraceEvent } from '@agent-trace/core';
import { rateLimits } from '@agent-trace/core/rate-limit';
import { fakeLLM } from '@agent-trace/testing';
import { formatDivergence, memorySink, recordedRuns, rerunTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

const desk = () =>
  agent({
    name: 'desk',
    model: fakeLLM(
      [
        { text: 'Paris' },
        () => {
          throw new ModelCallError({ kind: 'rate_limit', message: 'HTTP 429', status: 429 });
        },
        { text: 'Lyon' },
      ],
      { allowUnusedSteps: true },
    ),
    retry: { modelAttempts: 2, baseDelayMs: 1000 },
    circuitBreaker: { failureThreshold: 1, scope: 'run' },
  });

/** Two turns of one conversation, sharing one limit of a request a minute. */
async function recordTwoTurns(): Promise<TraceEvent[]> {
  const sink = memorySink();
  const entry = desk();
  const options = {
    trace: sink,
    clock: steppingClock(),
    rateLimits: rateLimits({ fake: { requestsPerMinute: 1 } }),
  };
  const first = await run(entry, 'Where?', options);
  await run(entry, 'And then?', { ...options, history: first.messages });
  return sink.events;
}

describe('a rate limit shared with other runs', () => {
  it('records the wait other runs made, and the second run reruns alone as the same', async () => {
    const events = await recordTwoTurns();
    const [, second] = recordedRuns(events);
    const waits = events.filter(event => event.event === 'rate_limit_wait' && event.run === second);
    expect(waits[0]).toMatchObject({ by_others: true });
    const report = await rerunTrace(events, desk(), {
      runId: second,
      run: { rateLimits: rateLimits({ fake: { requestsPerMinute: 1 } }) },
    });
    expect(report.differences.map(formatDivergence).join('\n')).toBe('');
    expect(report.result).toMatchObject({ output: 'Lyon' });
  });

  it("a wait behind the run's own calls is not by others, and a rerun decides it again", async () => {
    const retried = () =>
      agent({
        name: 'desk',
        model: fakeLLM(
          [
            () => {
              throw new ModelCallError({ kind: 'rate_limit', message: 'HTTP 429', status: 429 });
            },
            { text: 'Lyon' },
          ],
          { allowUnusedSteps: true },
        ),
        retry: { modelAttempts: 2, baseDelayMs: 1000 },
      });
    const sink = memorySink();
    const limits = { fake: { requestsPerMinute: 1 } };
    await run(retried(), 'Where?', {
      trace: sink,
      clock: steppingClock(),
      rateLimits: rateLimits(limits),
    });
    const waits = (events: readonly TraceEvent[]) =>
      events.flatMap(event => (event.event === 'rate_limit_wait' ? [event] : []));
    expect(waits(sink.events)).toEqual([expect.not.objectContaining({ by_others: true })]);
    const report = await rerunTrace(sink.events, retried(), {
      run: { rateLimits: rateLimits(limits) },
    });
    expect(report.same).toBe(true);
    // The same wait, give or take the recording clock's steps and the backoff's jitter.
    const [again] = waits(report.rerun);
    const [recorded] = waits(sink.events);
    expect(waits(report.rerun)).toHaveLength(1);
    expect(Math.abs((again?.waited_ms ?? 0) - (recorded?.waited_ms ?? 0))).toBeLessThan(1000);
  });
});
