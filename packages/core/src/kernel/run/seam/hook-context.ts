import type { AnyAgent } from '../../agent/agent.js';
import type { PointEventName, TraceEventFields } from '../../trace/run-tracer.js';
import type { Clock } from '../../util/clock.js';

/** The trace's own events a feature may write with `record`; its own events go through `emit`. */
export type FeatureEventName = Exclude<
  PointEventName,
  'retry' | 'malformed_answer' | 'plan' | 'feature' | 'transform'
>;

/** Writes an event of the run's trace under the span a hook is called in. */
export type RecordEvent = <Name extends FeatureEventName>(
  name: Name,
  fields: TraceEventFields<Name>,
) => void;

/**
 * What every hook is given, with the hook's own fields beside these: the run's read-only facts,
 * the agent whose turn it is, and what a feature may do there besides answering (write an event,
 * wait on the run's clock).
 */
export interface FeatureContext {
  readonly runId: string;
  /** The session written on every event (the run id unless the run was given one). */
  readonly session: string;
  readonly agent: AnyAgent;
  /** The agent's model calls so far in this turn (the call about to be made not counted). */
  readonly step: number;
  /** The run's clock: a virtual one in tests. */
  readonly clock: Clock;
  /** The run's abort signal, when it has one. */
  readonly signal: AbortSignal | undefined;
  /**
   * Writes an event under the span the hook is called in: the agent's, or a tool call's in the
   * hooks of a tool call. A `guardrail` event is also one of the findings the run's result lists.
   */
  readonly record: RecordEvent;
  /** Waits `ms` on the run's clock; an aborted run ends the wait with its abort error. */
  readonly wait: (ms: number) => Promise<void>;
}

/** A hook's answer, given now or once it has waited. */
export type MaybePromise<Value> = Value | Promise<Value>;
