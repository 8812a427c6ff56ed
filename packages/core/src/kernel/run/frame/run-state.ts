import type { CountedIds } from '../../util/continued-ids.js';
import type { GuardrailFinding } from '../../agent/guardrail.js';
import type { Usage } from '../../protocol/usage.js';
import type { CostTally } from '../../protocol/cost-tally.js';
import type { Redaction } from '../../trace/redaction.js';
import type { Seam } from '../seam/seam.js';
import type { RunOverrides } from './kernel-options.js';
import type { RunTracer } from '../../trace/run-tracer.js';
import type { Clock } from '../../util/clock.js';
import type { ChunkSequence } from './chunk-sequence.js';
import type { HandoffRecord, StepResult, ToolCallRecord } from '../../protocol/records.js';

/** What one run shares between the agents and phases that take part in it. */
export interface RunState {
  readonly tracer: RunTracer;
  readonly chunks: ChunkSequence;
  readonly signal: AbortSignal | undefined;
  readonly streaming: boolean;
  readonly clock: Clock;
  /** Where the run's ids come from, counted: a pause keeps what it drew. */
  readonly ids: CountedIds;
  /** A number in [0, 1) for retry jitter. */
  readonly random: () => number;
  readonly steps: StepResult[];
  readonly toolCalls: ToolCallRecord[];
  readonly handoffs: HandoffRecord[];
  /** Guardrail verdicts other than `allow`, in order. */
  readonly guardrailFindings: GuardrailFinding[];
  readonly overrides: RunOverrides;
  /** What cleans secrets out of the trace, the chunks and what the run returns (the seam's). */
  readonly redaction: Redaction | undefined;
  /** The features of the run, as the loop meets them. */
  readonly seam: Seam;
  /** The agents whose tool definitions the trace holds already (on their first `agent_start`). */
  readonly describedAgents: Set<string>;
  /** Totals shared by every agent of the run (delegates included, whose state is a copy). */
  readonly totals: { usage: Usage; readonly cost: CostTally };
}

/**
 * The state with another tracer: a delegate's or a workflow step's own view of the trace; the
 * state itself when that is its own tracer (a run that writes no events makes no views). Built
 * field by field (every field listed, the type checks none is missed): a spread of the state
 * costs every step that makes one.
 */
export function withTracer(state: RunState, tracer: RunTracer): RunState {
  if (tracer === state.tracer) return state;
  const copy: { readonly [Key in keyof Required<RunState>]: RunState[Key] } = {
    tracer,
    chunks: state.chunks,
    signal: state.signal,
    streaming: state.streaming,
    clock: state.clock,
    ids: state.ids,
    random: state.random,
    steps: state.steps,
    toolCalls: state.toolCalls,
    handoffs: state.handoffs,
    guardrailFindings: state.guardrailFindings,
    overrides: state.overrides,
    redaction: state.redaction,
    seam: state.seam,
    describedAgents: state.describedAgents,
    totals: state.totals,
  };
  return copy;
}
