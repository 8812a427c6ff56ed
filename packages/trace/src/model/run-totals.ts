import type { TraceEvent } from '@agent-trace/core';

/** What a run's events add up to (or several runs'). */
export interface RunTotals {
  readonly tokensIn: number;
  readonly tokensOut: number;
  /** US dollars of the priced model calls. */
  readonly costUsd: number;
  /** Answered model calls of models with no price: their cost is unknown. */
  readonly unpricedCalls: number;
  readonly llmCalls: number;
  readonly toolCalls: number;
  /** Failed model calls, tool calls and handoffs. */
  readonly errors: number;
}

/** Totals being counted, event by event. */
export type RunTally = { -readonly [Key in keyof RunTotals]: number };

/** Totals of no events: where counting starts. */
export function emptyTally(): RunTally {
  return {
    tokensIn: 0,
    tokensOut: 0,
    costUsd: 0,
    unpricedCalls: 0,
    llmCalls: 0,
    toolCalls: 0,
    errors: 0,
  };
}

/** Counts one event into `tally`: what {@link runTotals} does for each event. */
export function tallyEvent(tally: RunTally, event: TraceEvent): void {
  if (event.event === 'llm_end') {
    tally.tokensIn += event.tok_prompt;
    tally.tokensOut += event.tok_completion;
    if (event.cost_usd !== undefined) tally.costUsd += event.cost_usd;
    else if (event.error === undefined) tally.unpricedCalls++;
    tally.llmCalls++;
  }
  if (event.event === 'tool_end') tally.toolCalls++;
  if (
    (event.event === 'llm_end' || event.event === 'tool_end' || event.event === 'handoff_end') &&
    event.error !== undefined
  )
    tally.errors++;
}

/**
 * The totals of a run's events, counted from its model and tool calls (so a run still being
 * written, or one cut short, has them too): the one count the viewer and the CLI show.
 */
export function runTotals(events: Iterable<TraceEvent>): RunTotals {
  const tally = emptyTally();
  for (const event of events) tallyEvent(tally, event);
  return tally;
}
