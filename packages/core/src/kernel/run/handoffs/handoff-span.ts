import type { OpenSpan, TraceEventFields } from '../../trace/run-tracer.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { AgentOutcome } from '../turn/agent-outcome.js';
import type { RunState } from '../frame/run-state.js';
import { toTraceError } from '../frame/to-trace-error.js';

/** A handoff under way: its span, its `handoff` chunk, and the ways it can end. */
export interface HandoffSpan {
  /** The `handoff_start`: the parent of the target's `agent_start`. */
  readonly span: OpenSpan;
  /** How many handoffs deep the target runs. */
  readonly depth: number;
  /** The path with the target on it. */
  readonly nextPath: string[];
  /** The `handoff` chunk; undefined when no one reads chunks. */
  readonly chunk: Chunk | undefined;
  /** The handoff is refused before the target runs: recorded as such, its span ended with `type`. */
  refuse(type: string, message: string): void;
  /** The handoff is made: recorded as accepted. */
  accept(): void;
  /** The target finished, or was interrupted (`undefined`): ends the span, with an error unless it completed. */
  finish(outcome: AgentOutcome | undefined): void;
}

/**
 * Opens the `handoff_start` of a handoff (`pass_control`) or a delegation (`return_to_caller`),
 * and keeps what its end, its record in `result.handoffs` and its chunk share. Every way out ends
 * the span, so each `handoff_start` gets its `handoff_end`.
 */
export function startHandoffSpan(
  state: RunState,
  options: {
    from: string;
    to: string;
    mode: 'pass_control' | 'return_to_caller';
    path: readonly string[];
    parent: OpenSpan;
    /** More `handoff_start` fields: the call id, how a router chose. */
    start?: Pick<TraceEventFields<'handoff_start'>, 'call_id' | 'routed_by' | 'route_reason'>;
  },
): HandoffSpan {
  const { tracer, chunks } = state;
  const { from, to, mode, path } = options;
  const depth = path.length;
  const nextPath = [...path, to];
  const fields = { from, to, depth, mode, path: nextPath };
  const span = tracer.start('handoff_start', from, options.parent, { ...fields, ...options.start });
  const record = (accepted: boolean): void => {
    state.handoffs.push({ from, to, depth, mode, accepted });
  };
  return {
    span,
    depth,
    nextPath,
    chunk: chunks.wanted ? chunks.make('handoff', from, { from, to, depth, mode }) : undefined,
    refuse(type, message) {
      record(false);
      tracer.end(span, { ...fields, error: { type, message } });
    },
    accept: () => record(true),
    finish(outcome) {
      if (outcome?.stopReason === 'completed') {
        tracer.end(span, fields);
        return;
      }
      const error =
        outcome?.error === undefined
          ? {
              type: outcome?.stopReason ?? 'aborted',
              message: `'${to}' ended with ${outcome?.stopReason ?? 'aborted'}`,
            }
          : toTraceError(outcome.error);
      tracer.end(span, { ...fields, error });
    },
  };
}
