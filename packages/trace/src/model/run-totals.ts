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

/**
 * The totals of a run's events, counted from its model and tool calls (so a run still being
 * written, or one cut short, has them too): the one count the viewer and the CLI show.
 */
export function runTotals(events: Iterable<TraceEvent>): RunTotals {
  let tokensIn = 0;
  let tokensOut = 0;
  let costUsd = 0;
  let unpricedCalls = 0;
  let llmCalls = 0;
  let toolCalls = 0;
  let errors = 0;
  for (const event of events) {
    if (event.event === 'llm_end') {
      tokensIn += event.tok_prompt;
      tokensOut += event.tok_completion;
      if (event.cost_usd !== undefined) costUsd += event.cost_usd;
      else if (event.error === undefined) unpricedCalls++;
      llmCalls++;
    }
    if (event.event === 'tool_end') toolCalls++;
    if (
      (event.event === 'llm_end' || event.event === 'tool_end' || event.event === 'handoff_end') &&
      event.error !== undefined
    )
      errors++;
  }
  return { tokensIn, tokensOut, costUsd, unpricedCalls, llmCalls, toolCalls, errors };
}
