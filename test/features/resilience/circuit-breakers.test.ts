// The circuit-breaker feature: a model or tool that failed too often in a row is refused until
// its breaker lets a call through again, per agent or per run.
import { agent, run, steppingClock } from '@agent-trace/core';
import { CircuitBreaker } from '@agent-trace/core/internal';
import { fakeLLM } from '@agent-trace/testing';
import { describe, expect, it } from 'vitest';

describe('circuit breakers', () => {
  it('opens after consecutive failures across runs and refuses calls until the cool-down', async () => {
    const steps = Array.from({ length: 4 }, () => ({ error: { status: 503 } }));
    const model = fakeLLM(steps);
    const flaky = agent({
      name: 'a',
      model,
      retry: { modelAttempts: 2 },
      circuitBreaker: { failureThreshold: 3, cooldownMs: 60_000 },
    });
    const clock = steppingClock({ stepMs: 0 });
    const first = await run(flaky, 'one', { clock, random: () => 0 });
    expect(first.stopReason).toBe('error');
    const second = await run(flaky, 'two', { clock, random: () => 0 });
    expect(second.error?.message).toMatch(
      /^Model 'fake-model' was not called: its circuit breaker is open after 3 consecutive failures, and lets a call through again in \d+ ms\.$/,
    );
    expect(model.calls).toHaveLength(3);
    await clock.sleep?.(60_000, undefined);
    const third = await run(flaky, 'three', { clock, random: () => 0 });
    expect(model.calls).toHaveLength(4);
    expect(third.stopReason).toBe('error');
  });

  it("keeps each agent's own settings for a model they share, and shares no state between agents", async () => {
    const shared = fakeLLM(
      Array.from({ length: 6 }, () => ({ error: { status: 503 } })),
      { allowUnusedSteps: true }, // the breakers hold the last calls back
    );
    const strict = agent({
      name: 'strict',
      model: shared,
      retry: { modelAttempts: 1 },
      circuitBreaker: { failureThreshold: 1, cooldownMs: 60_000 },
    });
    const lenient = agent({
      name: 'lenient',
      model: shared,
      retry: { modelAttempts: 1 },
      circuitBreaker: { failureThreshold: 3, cooldownMs: 60_000 },
    });
    const clock = steppingClock({ stepMs: 0 });
    const open = /circuit breaker is open after (\d) consecutive failures/;
    await run(strict, 'one', { clock });
    expect((await run(strict, 'two', { clock })).error?.message).toMatch(open);
    expect((await run(strict, 'two', { clock })).error?.message).toMatch(/after 1 consecutive/);
    // The strict agent's open circuit does not stop the lenient one, which counts its own failures.
    for (let index = 0; index < 3; index++)
      expect((await run(lenient, 'x', { clock })).error?.message).not.toMatch(open);
    expect((await run(lenient, 'x', { clock })).error?.message).toMatch(/after 3 consecutive/);
    expect(shared.calls).toHaveLength(4);
  });

  it('scoped to the run, starts every run with closed breakers', async () => {
    const model = fakeLLM(Array.from({ length: 4 }, () => ({ error: { status: 503 } })));
    const perRun = agent({
      name: 'a',
      model,
      retry: { modelAttempts: 2 },
      circuitBreaker: { failureThreshold: 2, cooldownMs: 60_000, scope: 'run' },
    });
    const clock = steppingClock({ stepMs: 0 });
    await run(perRun, 'one', { clock, random: () => 0 });
    const second = await run(perRun, 'two', { clock, random: () => 0 });
    expect(second.error?.message).not.toMatch(/circuit breaker is open/);
    expect(model.calls).toHaveLength(4);
  });

  it('refuses an unknown scope', () => {
    expect(() =>
      agent({
        name: 'a',
        model: fakeLLM([]),
        circuitBreaker: { scope: 'process' as 'run' },
      }),
    ).toThrow(
      "Invalid circuitBreaker.scope for agent 'a': expected 'agent' or 'run' (actual: \"process\").",
    );
  });

  it('closes after a successful trial call (unit)', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownMs: 100 });
    breaker.recordFailure(0);
    expect(breaker.state(0)).toBe('closed');
    breaker.recordFailure(1);
    expect(breaker.state(50)).toBe('open');
    expect(breaker.allows(50)).toBe(false);
    expect(breaker.state(101)).toBe('half_open');
    expect(breaker.allows(101)).toBe(true);
    expect(breaker.allows(101)).toBe(false);
    breaker.recordSuccess();
    expect(breaker.state(102)).toBe('closed');
    breaker.recordFailure(103);
    expect(breaker.state(103)).toBe('closed');
  });

  it('reopens when the trial call fails (unit)', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 10 });
    breaker.recordFailure(0);
    expect(breaker.allows(10)).toBe(true);
    breaker.recordFailure(10);
    expect(breaker.state(15)).toBe('open');
  });
});
