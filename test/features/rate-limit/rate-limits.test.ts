import { agent, run, sequentialIds, virtualClock, type TraceEvent } from '@agent-trace/core';
import { rateLimits } from '@agent-trace/core/rate-limit';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../../support/cli.js';
import { describe, expect, it } from 'vitest';

/** The most calls that started within any 60-second window (half-open), and the times. */
function busiestMinute(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= 60_000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

const callTimes = (events: readonly TraceEvent[]) =>
  events.filter(event => event.event === 'llm_start').map(event => Date.parse(event.time));

describe('rate limits shared by concurrent runs', () => {
  it('100 concurrent runs under 60 requests a minute never exceed it, and each wait is traced', async () => {
    const limits = rateLimits({ fake: { requestsPerMinute: 60 } });
    const clock = virtualClock();
    const sink = memorySink();
    const ids = sequentialIds();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        run(
          agent({
            name: `a${index}`,
            model: fakeLLM([{ toolCalls: [{ name: 'missing' }] }, { text: 'done' }]),
          }),
          'go',
          { trace: sink, clock, rateLimits: limits, ids: { ...ids, runId: () => `run-${index}` } },
        ),
      ),
    );
    expect(results.every(result => result.stopReason === 'completed')).toBe(true);
    const times = callTimes(sink.events);
    expect(times).toHaveLength(200);
    expect(busiestMinute(times)).toBe(60);
    // 200 calls at 60 a minute: the last starts in the fourth minute.
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(3 * 60_000);
    const waits = sink.events.filter(event => event.event === 'rate_limit_wait');
    expect(waits.length).toBe(140);
    expect(waits[0]).toMatchObject({ provider: 'fake', reason: 'requests' });
    for (const index of [0, 57, 99]) {
      const own = sink.events.filter(event => event.run === `run-${index}`);
      expect(validateTrace(own).problems).toEqual([]);
    }
  });

  it('holds any mix of concurrent runs within the request limit, in every minute', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 10 }),
        async (steps, perMinute) => {
          const limits = rateLimits({ fake: { requestsPerMinute: perMinute } });
          const clock = virtualClock();
          const sink = memorySink();
          await Promise.all(
            steps.map((count, index) =>
              run(
                agent({
                  name: `a${index}`,
                  model: fakeLLM(
                    [
                      ...Array.from({ length: count - 1 }, (_, step) => ({
                        toolCalls: [{ name: 'x', args: { step } }],
                      })),
                      { text: 'done' },
                    ],
                    { allowUnusedSteps: true },
                  ),
                  limits: { maxSteps: 5 },
                }),
                'go',
                {
                  trace: sink,
                  clock,
                  rateLimits: limits,
                  ids: { ...sequentialIds(), runId: () => `r${index}` },
                },
              ),
            ),
          );
          expect(busiestMinute(callTimes(sink.events))).toBeLessThanOrEqual(perMinute);
        },
      ),
      { numRuns: 100, seed: 1818 },
    );
  });

  it('a wait ends at once when the run is aborted, and the trace is sealed', async () => {
    const limits = rateLimits({ fake: { requestsPerMinute: 1 } });
    const clock = virtualClock();
    await run(agent({ name: 'first', model: fakeLLM([{ text: 'ok' }]) }), 'go', {
      clock,
      rateLimits: limits,
    });
    const controller = new AbortController();
    const sink = memorySink();
    const waiting = run(
      agent({ name: 'second', model: fakeLLM([{ text: 'ok' }], { allowUnusedSteps: true }) }),
      'go',
      {
        clock,
        rateLimits: limits,
        trace: sink,
        signal: controller.signal,
      },
    );
    await new Promise(resolve => setImmediate(resolve));
    controller.abort('the user left');
    const result = await waiting;
    expect(result.stopReason).toBe('aborted');
    expect(sink.events.find(event => event.event === 'rate_limit_wait')).toMatchObject({
      waited_ms: 60_000,
    });
    expect(sink.events.filter(event => event.event === 'llm_start')).toHaveLength(0);
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it("a provider's retry-after holds back every run's calls until it has passed", async () => {
    const limits = rateLimits({ fake: { requestsPerMinute: 1000 } });
    const clock = virtualClock();
    const other = memorySink();
    await Promise.all([
      run(
        agent({
          name: 'limited',
          model: fakeLLM([{ error: { status: 429, retryAfterMs: 5000 } }, { text: 'ok' }]),
        }),
        'go',
        { clock, rateLimits: limits, random: () => 0 },
      ),
      // Its second call comes after the 429: it waits for the retry-after too.
      run(
        agent({
          name: 'other',
          model: fakeLLM([{ toolCalls: [{ name: 'missing' }] }, { text: 'ok' }]),
        }),
        'go',
        { clock, rateLimits: limits, trace: other },
      ),
    ]);
    expect(other.events.find(event => event.event === 'rate_limit_wait')).toMatchObject({
      reason: 'retry_after',
      waited_ms: 5000,
    });
    const [first, second] = callTimes(other.events);
    expect(second! - first!).toBe(5000);
  });

  it('counts tokens too: a minute holds no more than tokensPerMinute', async () => {
    const limits = rateLimits({ fake: { tokensPerMinute: 1000 } });
    const clock = virtualClock();
    const sink = memorySink();
    await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        run(
          agent({
            name: `t${index}`,
            model: fakeLLM([{ text: 'ok', usage: { promptTokens: 400, completionTokens: 10 } }]),
          }),
          // About 400 input tokens by characters ÷ 4: the estimate each call reserves.
          'x'.repeat(1596),
          {
            clock,
            rateLimits: limits,
            trace: sink,
            ids: { ...sequentialIds(), runId: () => `t${index}` },
          },
        ),
      ),
    );
    const times = callTimes(sink.events).sort((a, b) => a - b);
    // 400 tokens each: two fit in a minute, the third waits for the first to leave it.
    expect(times.map(time => time - times[0]!)).toEqual([0, 0, 60_000, 60_000, 120_000]);
  });

  it('replay shows the wait', async () => {
    const limits = rateLimits({ fake: { requestsPerMinute: 1 } });
    const clock = virtualClock();
    const sink = memorySink();
    await Promise.all(
      [0, 1].map(index =>
        run(agent({ name: `r${index}`, model: fakeLLM([{ text: 'ok' }]) }), 'go', {
          clock,
          rateLimits: limits,
          trace: sink,
          ids: { ...sequentialIds(), runId: () => `r${index}` },
        }),
      ),
    );
    const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-rate-')), 'rate.jsonl');
    writeFileSync(path, sink.events.map(event => `${JSON.stringify(event)}\n`).join(''));
    const { stdout } = await cli(['replay', path]);
    expect(stdout).toContain(
      'rate limit: waited 60.00 s for fake (requests, behind other runs) before calling fake-model',
    );
  });

  it('refuses a limit that is not a whole number above 0', () => {
    expect(() => rateLimits({ openai: { requestsPerMinute: 0 } })).toThrow(
      /Invalid requestsPerMinute for provider 'openai': expected a whole number above 0 \(actual: 0\)/,
    );
  });
});
