import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import { decidedKinds } from './decided-kinds.js';
import { madeOf } from './made-order.js';

/** How a recorded run was stopped from outside its code, as its `run_end` says. */
export interface RecordedStop {
  /** `aborted`: its caller's signal, or a stream's reader that stopped; `timeout`: its deadline. */
  readonly reason: 'aborted' | 'timeout';
  /** The error the stop ended the run with: the calls it cut carry the same. */
  readonly error: { readonly type: string; readonly message: string };
  /** The deadline's `timeoutMs`, for a run stopped by it. */
  readonly timeoutMs: number | undefined;
  /**
   * What the run made before the stop reached it: how many events of each kind and agent (see
   * `madeBefore`). The rerun is stopped once it has made as many, so it is stopped at the same
   * place in every part of the run (a workflow's steps, parallel agents).
   */
  readonly before: ReadonlyMap<string, number>;
  /**
   * Where the stop reached the recorded run, among the events it made (`run_end.stopped_made`);
   * undefined in traces recorded before it was kept.
   */
  readonly madeAt: number | undefined;
  /**
   * The answers (by span) the stop did not cut though they were written after it: they came
   * before it, and parts going on side by side wrote them in a task of their own. A rerun hands
   * them out before it stops.
   */
  readonly cameBefore: ReadonlySet<string>;
}

/** The key an event is counted under: its kind and agent. */
export const eventKey = (event: Pick<TraceEvent, 'event' | 'agent'>): string =>
  `${event.event}\u0000${event.agent}`;

/** How `run` was stopped from outside its code, if it was. */
export function recordedStop(
  run: readonly TraceEvent[],
  /** The answers that came side by side (see `concurrentAnswers`); none when not given. */
  sideBySide: ReadonlySet<string> = new Set(),
): RecordedStop | undefined {
  const end = run.findLast((event): event is TraceEventOf<'run_end'> => event.event === 'run_end');
  if (end?.error === undefined) return undefined;
  if (end.stop_reason !== 'aborted' && end.stop_reason !== 'timeout') return undefined;
  const { error } = end;
  return {
    reason: end.stop_reason,
    error,
    // Recorded before run_end said its limit: the deadline's words say it.
    timeoutMs:
      end.limit?.name === 'timeoutMs'
        ? end.limit.value
        : Number(/^Run timed out after (\d+) ms/.exec(error.message)?.[1] ?? Number.NaN) ||
          undefined,
    ...(end.stopped_made === undefined
      ? {
          before: madeBefore(run, end, error, firstCut(run, end, error)),
          madeAt: undefined,
          cameBefore: new Set<string>(),
        }
      : {
          ...placedBefore(run, end, error, end.stopped_made, sideBySide),
          madeAt: end.stopped_made,
        }),
  };
}

/**
 * True when a rerun hands `event` out from the recording as the outside world's answer (a model's
 * answer, a tool's result or crash), not decided again; a tool that ran an agent is run again.
 */
function handedOut(event: TraceEvent, agentTools: ReadonlySet<string>): boolean {
  if (event.event === 'llm_end') return event.error === undefined;
  if (event.event !== 'tool_end' || agentTools.has(event.span_id)) return false;
  return event.error === undefined || !decidedKinds.has(event.error.type);
}

/**
 * What the run made before the stop reached it, where the recording says (`stopped_made`): the
 * events made before that place, counted by kind and agent, not a rate limit's waits; and the
 * answers from outside made after it that it did not cut (they came before it).
 */
function placedBefore(
  run: readonly TraceEvent[],
  end: TraceEventOf<'run_end'>,
  error: { readonly type: string; readonly message: string },
  stoppedMade: number,
  sideBySide: ReadonlySet<string>,
): { before: Map<string, number>; cameBefore: Set<string> } {
  const before = new Map<string, number>();
  const cameBefore = new Set<string>();
  const agentTools = new Set<string>();
  for (const event of run)
    if (event.event === 'agent_start' && event.parent_span_id !== null)
      agentTools.add(event.parent_span_id);
  const count = (event: TraceEvent): void => {
    const key = eventKey(event);
    before.set(key, (before.get(key) ?? 0) + 1);
  };
  for (const event of run) {
    if (event === end || carries(event, error) || event.event === 'rate_limit_wait') continue;
    if (madeOf(event) < stoppedMade) count(event);
    else if (handedOut(event, agentTools))
      // Beside other parts, an answer that came before the stop was written in a task of its own,
      // after it; in a run one step at a time, it came as the stop did (a stream's reader stopped
      // while it streamed) and was written before anything noticed.
      if (sideBySide.has(event.span_id)) cameBefore.add(event.span_id);
      else count(event);
  }
  return { before, cameBefore };
}

/** When the stop `error` first cut something in `run`: the time of the first event that carries it. */
function firstCut(
  run: readonly TraceEvent[],
  end: TraceEventOf<'run_end'>,
  error: { readonly type: string; readonly message: string },
): number {
  let cutMs = Number.POSITIVE_INFINITY;
  for (const event of run)
    if (event !== end && carries(event, error)) cutMs = Math.min(cutMs, Date.parse(event.time));
  return cutMs;
}

/**
 * The events of `run` before the stop reached it (at `cutMs`), counted: those that do not carry
 * it, written no later than the first that does, and the answers it did not cut (they came before
 * it, though written after); not a rate limit's waits. Another event written after the stop
 * without its error (a step whose work had ended) need not be made for the stop to come.
 */
function madeBefore(
  run: readonly TraceEvent[],
  end: TraceEventOf<'run_end'>,
  error: { readonly type: string; readonly message: string },
  cutMs: number,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of run) {
    if (event === end || carries(event, error)) continue;
    // A rate limit's wait depends on other runs that shared the limiter (a conversation's
    // earlier turn): a rerun of this run alone waits where its own calls make it.
    if (event.event === 'rate_limit_wait') continue;
    // After the stop, only an answer it did not cut: one that came before it, written after.
    const answer = event.event === 'llm_end' || event.event === 'tool_end';
    if (Date.parse(event.time) > cutMs && !answer) continue;
    const key = eventKey(event);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** True when `event` carries the stop's `error` (a call, a wait, a part of the run it cut). */
export function carries(
  event: TraceEvent,
  error: { readonly type: string; readonly message: string },
): boolean {
  return 'error' in event && cutBy(event.error, error);
}

/**
 * True when `said` (an event's error) is the stop's `error`, or work the stop cut in its own words
 * (`aborted`: a workflow's step it stopped says so).
 */
export function cutBy(
  said: { readonly type?: unknown; readonly message?: unknown } | undefined,
  error: { readonly type: string; readonly message: string },
): boolean {
  if (said === undefined) return false;
  return (said.type === error.type && said.message === error.message) || said.type === 'aborted';
}
