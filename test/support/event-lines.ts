import type { TraceEvent } from '@agent-trace/core';

/** Each event as `<event> <agent>`: a bridged run's shape, for comparing with what is expected. */
export const eventLines = (events: readonly TraceEvent[]): string[] =>
  events.map(event => `${event.event} ${event.agent}`);

/** The first event of a kind by an agent. */
export const eventOf = (
  events: readonly TraceEvent[],
  name: string,
  agent: string,
): TraceEvent | undefined => events.find(event => event.event === name && event.agent === agent);
