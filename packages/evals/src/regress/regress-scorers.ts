import type { TraceEvent } from '@agent-trace/core';
import { runTotals } from '@agent-trace/trace/model';
import type { Scorer, ScorerInput } from '../scorer.js';
import { noErrors, stopReasonIs } from '../scorers/run-facts.js';
import { matchTrajectory, trajectoryOf } from '../scorers/trajectory.js';

/** What a regress case expects: the run as it was recorded. */
export interface RegressExpected {
  readonly recorded: readonly TraceEvent[];
}

/** The recorded run of a regress case (the run itself when it is the one scored). */
function recordedOf(input: ScorerInput): readonly TraceEvent[] {
  return (input.case.expected as RegressExpected | undefined)?.recorded ?? input.trace;
}

/** 1 when the run's tools and handoffs are the recording's, in order, with the same arguments. */
export function sameTrajectory(): Scorer {
  return {
    name: 'trajectory',
    score: input => matchTrajectory(trajectoryOf(input.trace), trajectoryOf(recordedOf(input))),
  };
}

/** 1 when the run made no more model calls than the recording; less as it makes more. */
export function stepsNoMore(): Scorer {
  return {
    name: 'steps',
    score(input) {
      const now = runTotals(input.trace).llmCalls;
      const then = runTotals(recordedOf(input)).llmCalls;
      return {
        score: now <= then ? 1 : then / now,
        reason: `${now} model calls; the recording made ${then}`,
      };
    },
  };
}

/** 1 when the run cost no more than the recording (or either cost is unknown); less as it costs more. */
export function costNoMore(): Scorer {
  return {
    name: 'cost',
    score(input) {
      const now = runTotals(input.trace);
      const then = runTotals(recordedOf(input));
      const noMore = now.unpricedCalls > 0 || then.unpricedCalls > 0 || now.costUsd <= then.costUsd;
      return {
        score: noMore ? 1 : then.costUsd / now.costUsd,
        reason: `$${now.costUsd.toFixed(6)}; recorded $${then.costUsd.toFixed(6)}`,
      };
    },
  };
}

/**
 * The scorers a regress uses without an eval module's: the run completed, had no failed call,
 * kept the recording's trajectory, and made no more model calls and cost no more than it.
 */
export function regressScorers(): readonly Scorer[] {
  return [stopReasonIs('completed'), noErrors(), sameTrajectory(), stepsNoMore(), costNoMore()];
}
