/**
 * State that outlives a run: one desk object answers several runs, and its model's circuit
 * breaker (shared by every run of the agent) is opened by the first run's failures, so the next
 * runs start with it open and go to the fallback model.
 * The same as the turns of one conversation. A rerun reads the breaker as the recording read it.
 */
import { agent, run, steppingClock } from '@agent-trace/core';
import { conversation } from '@agent-trace/core/conversation';
import { jsonlSink } from '@agent-trace/trace';
import { expect } from 'vitest';
import { everyChange, instructions, script } from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';
import { deskTools } from './conversation.js';

export function build(change?: Change) {
  return agent({
    name: 'desk',
    instructions: instructions(change, 'Help customers with orders.'),
    model: script(
      [
        { toolCalls: [{ name: 'order', args: { id: 42 } }] },
        { error: { status: 503 } },
        { error: { status: 503 } },
      ],
      { modelId: 'main-model' },
    ),
    fallbackModel: script(
      [
        { text: 'Order 42 has shipped.' },
        { toolCalls: [{ name: 'order', args: { id: 43 } }] },
        { text: 'Order 43 has shipped.' },
        { text: 'Yes, sure.' },
      ],
      { modelId: 'spare-model' },
    ),
    retry: { modelAttempts: 2, baseDelayMs: 10 },
    circuitBreaker: { failureThreshold: 2, cooldownMs: 60_000 },
    tools: deskTools(change),
  });
}

/** What the customer asks, run by run (or turn by turn). */
const questions = ['Where is order 42?', 'And order 43?', 'Sure?'] as const;

/** The questions as runs of one desk object (`conversation` false) or as one conversation's turns. */
async function record(file: string, asConversation: boolean): Promise<void> {
  const trace = jsonlSink(file);
  const desk = build();
  const clock = steppingClock();
  try {
    if (asConversation) {
      const chat = conversation(desk, { trace, clock, id: 'breaker-chat' });
      for (const question of questions) await chat.send(question);
    } else for (const question of questions) await run(desk, question, { trace, clock });
  } finally {
    await trace.close();
  }
}

const checks = {
  build,
  runs: 3,
  changes: everyChange('desk', { changed: 'order', removed: 'refund' }),
  holds: (events: Parameters<NonNullable<Shape['holds']>>[0]) => {
    const refused = events.filter(
      event => event.event === 'llm_end' && event.error?.type === 'circuit_open',
    );
    const second = events.filter(event => event.event === 'run_start')[1]?.run;
    expect(refused.some(event => event.run === second)).toBe(true);
    expect(
      events.some(
        event => event.event === 'feature' && event.name === 'kept' && event.run === second,
      ),
    ).toBe(true);
  },
} satisfies Partial<Shape>;

export const shape: Shape = {
  name: 'a breaker opened by an earlier run of the same agent object',
  module: 'test/conformance/shapes/breaker-across-runs.ts',
  record: file => record(file, false),
  ...checks,
};

export const acrossTurns: Shape = {
  name: "a breaker opened by a conversation's earlier turn",
  module: 'test/conformance/shapes/breaker-across-runs.ts',
  record: file => record(file, true),
  ...checks,
};

export default build();
