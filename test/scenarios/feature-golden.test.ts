/**
 * The golden trace of a run with features of a user's own (examples/features/): a request
 * transform, a tool-result transform with an event of its own, and a refusal in a feature's own
 * name and kind. After an intended change: UPDATE_GOLDEN=1, check the diff of golden/, commit it.
 */
import { fileURLToPath } from 'node:url';
import { run, sequentialIds, steppingClock } from '@agent-trace/core';
import { compareGoldenTrace } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { desk, features } from '../../examples/features/desk.js';

const directory = fileURLToPath(new URL('../../golden', import.meta.url));

it("a run with features' transforms, own events and own refusals matches its golden trace", async () => {
  const sink = memorySink();
  const result = await run(desk(), 'What are customer 7’s open orders?', {
    features,
    trace: sink,
    clock: steppingClock(),
    ids: sequentialIds(),
    random: () => 0.5,
    session: 'features-own-words',
  });
  expect(result.stopReason).toBe('completed');
  expect(validateTrace(sink.events).problems).toEqual([]);
  const kinds = new Set(sink.events.map(event => event.event));
  expect(kinds.has('feature') && kinds.has('transform')).toBe(true);
  expect(['matched', 'written']).toContain(
    compareGoldenTrace('features-own-words', sink.events, { directory }),
  );
});
