import { agent, run, steppingClock, type Clock, type TraceEvent } from '@agent-trace/core';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

/** A virtual clock that remembers every wait the run asked of it. */
function recordingClock(): Clock & { waits: number[] } {
  const inner = steppingClock({ stepMs: 0 });
  const waits: number[] = [];
  return {
    waits,
    now: () => inner.now(),
    sleep: (delayMs, signal) => {
      waits.push(delayMs);
      return inner.sleep!(delayMs, signal);
    },
  };
}

const rateLimited = (retryAfterMs: number): FakeLLMStep => ({
  error: { status: 429, retryAfterMs },
});

describe('a storm of 429s', () => {
  it('across 50 concurrent sessions: retry-after honoured, attempts within budget, then the fallback answers', async () => {
    const sessions = 50;
    const outcomes = await Promise.all(
      Array.from({ length: sessions }, async (_, index) => {
        const clock = recordingClock();
        const trace = memorySink();
        const retryAfterMs = 1000 + index * 10;
        const primary = fakeLLM([
          rateLimited(retryAfterMs),
          rateLimited(retryAfterMs),
          rateLimited(retryAfterMs),
        ]);
        const fallback = fakeLLM([rateLimited(retryAfterMs), { text: `answer ${index}` }], {
          modelId: 'fallback-model',
        });
        const result = await run(
          agent({
            name: 'support',
            model: primary,
            fallbackModel: fallback,
            retry: { modelAttempts: 3 },
            circuitBreaker: false,
          }),
          'Hello',
          { trace, clock, random: () => 0.5, session: `storm-${index}` },
        );
        return {
          index,
          result,
          clock,
          trace,
          retryAfterMs,
          calls: primary.calls.length + fallback.calls.length,
        };
      }),
    );
    for (const { index, result, clock, trace, retryAfterMs, calls } of outcomes) {
      expect(result).toMatchObject({ stopReason: 'completed', output: `answer ${index}` });
      expect(calls).toBe(5); // 3 attempts on the primary, 2 on the fallback: no more
      // Every wait is the provider's retry-after, never shorter; the switch to the fallback is immediate.
      expect(clock.waits).toEqual([retryAfterMs, retryAfterMs, retryAfterMs]);
      expect(validateTrace(trace.events).problems).toEqual([]);
      const retries = trace.events.filter(
        (event): event is Extract<TraceEvent, { event: 'retry' }> => event.event === 'retry',
      );
      expect(retries.map(event => [event.attempt, event.delay_ms, event.fallback])).toEqual([
        [2, retryAfterMs, undefined],
        [3, retryAfterMs, undefined],
        [1, 0, 'fallback-model'],
        [2, retryAfterMs, undefined],
      ]);
    }
  });

  it('opens the circuit of an agent every session runs, so the storm stops reaching its model', async () => {
    const storm = fakeLLM(
      Array.from({ length: 200 }, () => rateLimited(10)),
      {
        allowUnusedSteps: true, // the breaker stops the calls long before the script ends
      },
    );
    // One agent, many sessions: its breakers are shared by all its runs.
    const support = agent({
      name: 'support',
      model: storm,
      retry: { modelAttempts: 3 },
      circuitBreaker: { failureThreshold: 5, cooldownMs: 60_000 },
    });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        run(support, 'Hello', {
          clock: steppingClock({ stepMs: 0 }),
          random: () => 0.5,
          session: `shared-${index}`,
        }),
      ),
    );
    expect(results.every(result => result.stopReason === 'error')).toBe(true);
    expect(storm.calls.length).toBeLessThan(20 * 3); // without the breaker: 60 calls
    expect(
      results.some(result => /circuit breaker is open/.test(result.error?.message ?? '')),
    ).toBe(true);
  });
});
