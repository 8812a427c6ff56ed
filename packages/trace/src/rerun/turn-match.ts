import type { TraceEvent, TraceSink } from '@agent-trace/core';
import { followingSink } from './following-sink.js';
import { madeOf } from './made-order.js';

/**
 * Which recorded turn each of a rerun's agent turns is, for an agent the recorded run asked more
 * than once: its turns are matched in the order they started (the first of the agent's turns to
 * start in the rerun is the first recorded, and so on), as the rerun makes them (its `sink`).
 * Model calls then answer from their own turn's recorded calls, however alike two turns' requests
 * look (an agent asked by a workflow step and handed to at the same time).
 */
export class TurnMatch {
  /** The recorded turns (agent spans) of each agent asked more than once, in the order they started. */
  readonly #recorded = new Map<string, string[]>();
  /** The recorded turn of each of the rerun's turns, by its span. */
  readonly #matched = new Map<string, string | undefined>();

  constructor(run: readonly TraceEvent[]) {
    const starts = run
      .filter(event => event.event === 'agent_start')
      .sort(
        (left, right) =>
          Date.parse(left.time) - Date.parse(right.time) || madeOf(left) - madeOf(right),
      );
    const byAgent = new Map<string, string[]>();
    for (const start of starts) {
      const spans = byAgent.get(start.agent) ?? [];
      spans.push(start.span_id);
      byAgent.set(start.agent, spans);
    }
    for (const [agent, spans] of byAgent) if (spans.length > 1) this.#recorded.set(agent, spans);
  }

  /** True when some agent was asked more than once: the rerun needs to follow its turns. */
  get needed(): boolean {
    return this.#recorded.size > 0;
  }

  /** A sink that follows the rerun's turns as they start. */
  readonly sink: TraceSink = followingSink(event => {
    if (event.event !== 'agent_start') return;
    const spans = this.#recorded.get(event.agent);
    if (spans !== undefined) this.#matched.set(event.span_id, spans.shift());
  });

  /** The recorded turn (agent span) the rerun's turn `agentSpanId` is, if known. */
  recordedTurn(agentSpanId: string | undefined): string | undefined {
    return agentSpanId === undefined ? undefined : this.#matched.get(agentSpanId);
  }
}
