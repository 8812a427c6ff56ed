import type { TraceEvent, TraceSink } from '@agent-trace/core';
import { followingSink } from './following-sink.js';
import { madeOf } from './made-order.js';

/**
 * Which recorded turn each of a rerun's agent turns is: an agent's turns are matched in the order
 * they started (the first of the agent's turns to start in the rerun is the first recorded, and
 * so on), as the rerun makes them (its `sink`). Model calls then answer from their own turn's
 * recorded calls, however alike two turns' requests look (an agent asked by a workflow step and
 * handed to at the same time), and a paced step waits for its own turn's place.
 */
export class TurnMatch {
  /** Each agent's recorded turns (agent spans), in the order they started. */
  readonly #recorded = new Map<string, string[]>();
  /** How many of each agent's turns the rerun has started. */
  readonly #started = new Map<string, number>();
  /** The recorded turn of each of the rerun's turns, by its span. */
  readonly #matched = new Map<string, string | undefined>();
  /** True when some agent was asked more than once: its model calls need their turns. */
  readonly askedAgain: boolean;

  constructor(run: readonly TraceEvent[]) {
    const starts = run
      .filter(event => event.event === 'agent_start')
      .sort(
        (left, right) =>
          Date.parse(left.time) - Date.parse(right.time) || madeOf(left) - madeOf(right),
      );
    for (const start of starts) {
      const spans = this.#recorded.get(start.agent) ?? [];
      spans.push(start.span_id);
      this.#recorded.set(start.agent, spans);
    }
    this.askedAgain = [...this.#recorded.values()].some(spans => spans.length > 1);
  }

  /** A sink that follows the rerun's turns as they start. */
  readonly sink: TraceSink = followingSink(event => {
    if (event.event !== 'agent_start') return;
    const started = this.#started.get(event.agent) ?? 0;
    this.#started.set(event.agent, started + 1);
    this.#matched.set(event.span_id, this.#recorded.get(event.agent)?.[started]);
  });

  /** The recorded turn (agent span) the rerun's turn `agentSpanId` is, if known. */
  recordedTurn(agentSpanId: string | undefined): string | undefined {
    return agentSpanId === undefined ? undefined : this.#matched.get(agentSpanId);
  }
}
