import type { Scorer } from '../scorer.js';
import type { CaseResult, EvalResult } from '../run-eval.js';
import { firstLoop, repeatedCalls, timeToFirstToken, toolErrors } from './agent-metrics.js';
import { trajectoryOf } from './trajectory.js';

/** A score that is a share, rounded for its reason. */
const share = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * Steps against the shortest successful path recorded for the case: `reference / steps` when the
 * run took more steps than the reference, else 1. A step is a tool call or a handoff (the run's
 * trajectory). The reference is `reference`, else the case's `expected.steps`, else the length of
 * its `expected.trajectory` (a case made of a recorded run has one).
 */
export function stepEfficiency({
  reference,
  name = 'step_efficiency',
}: { readonly reference?: number; readonly name?: string } = {}): Scorer {
  return {
    name,
    score({ case: evalCase, trace }) {
      const expected = evalCase.expected as
        { steps?: number; trajectory?: readonly unknown[] } | undefined;
      const shortest = reference ?? expected?.steps ?? expected?.trajectory?.length;
      if (shortest === undefined)
        throw new Error(
          `Scorer '${name}' has no reference: give one, or put the case's expected.steps or expected.trajectory.`,
        );
      const steps = trajectoryOf(trace).length;
      const score = steps <= shortest ? 1 : shortest / steps;
      return { score, reason: `${steps} steps; the shortest recorded path takes ${shortest}` };
    },
  };
}

/**
 * 1 minus the share of the run's tool calls that repeat an earlier call of the same tool with the
 * same arguments (1 for a run with no tool call).
 */
export function repeatedToolCalls({ name = 'repeated_tool_calls' } = {}): Scorer {
  return {
    name,
    score({ trace }) {
      const calls = trace.filter(event => event.event === 'tool_start').length;
      const repeats = repeatedCalls(trace);
      if (repeats.length === 0) return { score: 1, reason: `no repeated call of ${calls}` };
      const first = repeats[0]!;
      return {
        score: share(1 - repeats.length / calls),
        reason: `${repeats.length} of ${calls} calls repeat an earlier one, first ${first.tool} ${JSON.stringify(first.args)} (time ${first.time})`,
      };
    },
  };
}

/**
 * 0 when the run loops, else 1: a handoff back to an agent that already had control in the chain,
 * or a sequence of two or more different steps that comes again right after itself (`times` in
 * a row; by default twice).
 */
export function noLoops({ times = 2, name = 'loops' } = {}): Scorer {
  return {
    name,
    score({ trace }) {
      const loop = firstLoop(trace, times);
      return loop === undefined
        ? { score: 1, reason: 'no loop' }
        : {
            score: 0,
            reason: `${loop.kind === 'handoff' ? 'control came back' : `${times} times in a row`}: ${loop.cycle.join(' → ')}`,
          };
    },
  };
}

/** 1 minus the share of the run's tool calls that failed (1 for a run with no tool call). */
export function toolErrorRate({ name = 'tool_errors' } = {}): Scorer {
  return {
    name,
    score({ trace }) {
      const { calls, failed } = toolErrors(trace);
      return {
        score: calls === 0 ? 1 : share(1 - failed / calls),
        reason: `${failed} of ${calls} tool calls failed`,
      };
    },
  };
}

/**
 * The share of the run's failed tool calls that a later call of the same tool made good (1 for a
 * run where none failed).
 */
export function toolRecovery({ name = 'tool_recovery' } = {}): Scorer {
  return {
    name,
    score({ trace }) {
      const { failed, recovered } = toolErrors(trace);
      return {
        score: failed === 0 ? 1 : share(recovered / failed),
        reason:
          failed === 0 ? 'no tool call failed' : `${recovered} of ${failed} failed calls recovered`,
      };
    },
  };
}

/**
 * 1 when the run's first token came within `limitMs` of its start, else `limitMs / ms`; 0 for a
 * run with no model call. A streamed call's first chunk counts; a call that was not streamed
 * gives its answer at once, so its end does.
 */
export function timeToFirstTokenAtMost(
  limitMs: number,
  { name = 'time_to_first_token' } = {},
): Scorer {
  return {
    name,
    score({ trace }) {
      const first = timeToFirstToken(trace);
      if (first === undefined) return { score: 0, reason: 'the run made no model call' };
      const how = first.streamed ? 'first chunk' : 'whole answer (not streamed)';
      return {
        score: first.ms <= limitMs ? 1 : share(limitMs / first.ms),
        reason: `${Math.round(first.ms)} ms to the ${how}; ${limitMs} allowed`,
      };
    },
  };
}

/** What an eval's runs cost per successful one. */
export interface CostPerSuccess {
  /** What every trial cost, in US dollars (the priced calls). */
  readonly costUsd: number;
  readonly runs: number;
  readonly successes: number;
  /** `costUsd / successes`; undefined when none succeeded (or a call had no price: unknown). */
  readonly perSuccessUsd: number | undefined;
  /** Calls of models with no price: the cost is then unknown. */
  readonly unpricedCalls: number;
}

/**
 * Cost per successful run: what all of an eval's trials cost, judges included, divided by the
 * trials that succeeded (by default: the task did not throw and every score is 1).
 */
export function costPerSuccessfulRun(
  result: EvalResult,
  succeeded: (each: CaseResult) => boolean = each =>
    each.error === undefined && Object.values(each.scores).every(score => score.score === 1),
): CostPerSuccess {
  let costUsd = 0;
  let unpricedCalls = 0;
  for (const each of result.cases) {
    costUsd += each.usage.costUsd;
    unpricedCalls += each.usage.unpricedCalls;
  }
  const successes = result.cases.filter(succeeded).length;
  return {
    costUsd,
    runs: result.cases.length,
    successes,
    perSuccessUsd: successes === 0 || unpricedCalls > 0 ? undefined : costUsd / successes,
    unpricedCalls,
  };
}
