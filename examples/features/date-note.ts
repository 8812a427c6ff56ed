/**
 * A feature that changes the request itself: it tells every model call the run's date, appended
 * to the instructions, through the transform hook for requests. The date comes from the run's
 * clock, so a rerun (whose clock is the recording's) sends the same note, and `llm_start` records
 * the instructions as they were sent.
 */
import type { Feature } from '@agent-trace/core/features';

/** Appends "Today is <date>." to every model call's instructions. */
export function dateNote(): Feature {
  return {
    name: 'date-note',
    version: 2,
    forRun: () => ({
      transformRequest: ({ clock, request }) => ({
        ...request,
        instructions: `${request.instructions}\n\nToday is ${new Date(clock.now()).toISOString().slice(0, 10)}.`,
      }),
    }),
  };
}
