/** What the termination properties share: the tools they give agents, and one checked run. */
import {
  run,
  steppingClock,
  stopReasons,
  stream,
  tool,
  type AnyAgent,
  type Chunk,
  type RunResult,
} from '@agent-trace/core';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { expect } from 'vitest';
import { z } from 'zod';

/** A tool that answers with its text. */
export const echo = tool({
  name: 'echo',
  description: 'Echo',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

/** A tool that always throws. */
export const fail = tool({
  name: 'fail',
  description: 'Always throws',
  input: z.object({}),
  execute: () => {
    throw new Error('boom');
  },
});

/**
 * Runs `subject` (streamed or not) on a stepping clock and checks what every run must give: a
 * known stop reason, a valid trace sealed with that reason, and contiguous chunk numbers.
 */
export async function checkedRun(
  subject: AnyAgent,
  streaming: boolean,
): Promise<{ result: RunResult<unknown>; events: ReturnType<typeof memorySink>['events'] }> {
  const sink = memorySink();
  const options = { trace: sink, clock: steppingClock(), random: () => 0.5 };
  const chunks: Chunk[] = [];
  let result: RunResult<unknown>;
  if (streaming) {
    const running = stream(subject, 'go', options);
    for await (const chunk of running) chunks.push(chunk);
    result = await running.result;
  } else {
    result = await run(subject, 'go', options);
  }
  expect(stopReasons).toContain(result.stopReason);
  expect(validateTrace(sink.events).problems).toEqual([]);
  expect(sink.events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: result.stopReason });
  expect(chunks.map(chunk => chunk.seq)).toEqual(chunks.map((_, index) => index));
  return { result, events: sink.events };
}
