import type { TraceEvent } from '@agent-trace/core';
import type { Scorer } from '../scorer.js';

/** A step of a trajectory: a tool call with its arguments, or a handoff to an agent. */
export type TrajectoryStep =
  { readonly tool: string; readonly args?: unknown } | { readonly handoff: string };

/**
 * How the run's trajectory must match the reference:
 * - `strict`: the same steps in the same order;
 * - `unordered`: the same steps, in any order;
 * - `subset`: every step of the run is in the reference (the run did nothing else);
 * - `superset`: every step of the reference is in the run (the run did at least that).
 */
export type TrajectoryMode = 'strict' | 'unordered' | 'subset' | 'superset';

/**
 * How a tool call's arguments must match the reference's: `exact` (deep equality), `partial`
 * (the reference's arguments are a subset of the call's, recursively), `ignore`, or a comparer
 * of your own.
 */
export type ArgumentMatch =
  'exact' | 'partial' | 'ignore' | ((actual: unknown, reference: unknown) => boolean);

export interface TrajectoryMatchOptions {
  /** @defaultValue 'strict' */
  readonly mode?: TrajectoryMode;
  /** @defaultValue 'exact' */
  readonly args?: ArgumentMatch;
  /** @defaultValue 'trajectory' */
  readonly name?: string;
}

/**
 * The run's trajectory from its trace: its tool calls (with their arguments, as the tool got
 * them) and handoffs, in the order the trace has them.
 */
export function trajectoryOf(trace: readonly TraceEvent[]): TrajectoryStep[] {
  const steps: TrajectoryStep[] = [];
  for (const event of trace) {
    if (event.event === 'tool_start') steps.push({ tool: event.tool, args: event.args });
    else if (event.event === 'handoff_start' && event.mode === 'pass_control')
      steps.push({ handoff: event.to });
  }
  return steps;
}

/**
 * Whether `actual` matches `reference` as `mode` says, and how far: 1 when it does, else the
 * share of the steps that had their match.
 */
export function matchTrajectory(
  actual: readonly TrajectoryStep[],
  reference: readonly TrajectoryStep[],
  mode: TrajectoryMode = 'strict',
  args: ArgumentMatch = 'exact',
): { readonly score: number; readonly reason: string } {
  const same = (a: TrajectoryStep, r: TrajectoryStep) => stepMatches(a, r, args);
  if (mode === 'strict') {
    const first = firstDifference(actual, reference, same);
    if (first === undefined) return { score: 1, reason: `the same ${actual.length} steps` };
    return {
      score: first / Math.max(actual.length, reference.length),
      reason: `step ${first + 1}: ${describe(actual[first])} where the reference has ${describe(reference[first])}`,
    };
  }
  const paired = pairs(actual, reference, same);
  const unmatchedActual = actual.filter((_, index) => !paired.actual.has(index));
  const unmatchedReference = reference.filter((_, index) => !paired.reference.has(index));
  const extra = mode === 'superset' ? [] : unmatchedActual;
  const missing = mode === 'subset' ? [] : unmatchedReference;
  if (extra.length === 0 && missing.length === 0)
    return { score: 1, reason: `every step matched (${mode})` };
  const needed =
    (mode === 'superset' ? 0 : actual.length) + (mode === 'subset' ? 0 : reference.length);
  return {
    score: (needed - extra.length - missing.length) / needed,
    reason: [
      extra.length === 0 ? '' : `not in the reference: ${extra.map(describe).join(', ')}`,
      missing.length === 0 ? '' : `missing: ${missing.map(describe).join(', ')}`,
    ]
      .filter(part => part !== '')
      .join('; '),
  };
}

/**
 * Scores the run's tool calls and handoffs against a reference trajectory: the case's own
 * (`expected.trajectory`), or one given here for every case.
 */
export function trajectoryMatch(
  reference?: readonly TrajectoryStep[],
  options: TrajectoryMatchOptions = {},
): Scorer {
  const { mode = 'strict', args = 'exact', name = 'trajectory' } = options;
  return {
    name,
    score({ case: evalCase, trace }) {
      const expected =
        reference ??
        (evalCase.expected as { trajectory?: TrajectoryStep[] } | undefined)?.trajectory;
      if (expected === undefined)
        throw new Error(
          `Scorer '${name}' has no reference trajectory: give one, or put it in the case's expected.trajectory.`,
        );
      return matchTrajectory(trajectoryOf(trace), expected, mode, args);
    },
  };
}

function stepMatches(actual: TrajectoryStep, reference: TrajectoryStep, args: ArgumentMatch) {
  if ('handoff' in reference) return 'handoff' in actual && actual.handoff === reference.handoff;
  if (!('tool' in actual) || actual.tool !== reference.tool) return false;
  if (args === 'ignore' || !('args' in reference)) return true;
  if (args === 'exact') return jsonEqual(actual.args, reference.args);
  if (args === 'partial') return containsPartially(actual.args, reference.args);
  return args(actual.args, reference.args);
}

/** Whether `actual` has everything `reference` has: objects by key, recursively; the rest equal. */
export function containsPartially(actual: unknown, reference: unknown): boolean {
  if (typeof reference !== 'object' || reference === null || Array.isArray(reference))
    return jsonEqual(actual, reference);
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
  const record = actual as Record<string, unknown>;
  return Object.entries(reference).every(
    ([key, value]) => key in record && containsPartially(record[key], value),
  );
}

/** Equality of JSON values: arrays item by item, objects key by key (whatever their prototype). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return (
      a.length === (b as unknown[]).length &&
      a.every((item, i) => jsonEqual(item, (b as unknown[])[i]))
    );
  const left = Object.keys(a);
  const right = b as Record<string, unknown>;
  return (
    left.length === Object.keys(right).length &&
    left.every(key => key in right && jsonEqual((a as Record<string, unknown>)[key], right[key]))
  );
}

function firstDifference<T>(
  actual: readonly T[],
  reference: readonly T[],
  same: (a: T, r: T) => boolean,
): number | undefined {
  const length = Math.max(actual.length, reference.length);
  for (let index = 0; index < length; index++) {
    const a = actual[index];
    const r = reference[index];
    if (a === undefined || r === undefined || !same(a, r)) return index;
  }
  return undefined;
}

/**
 * A largest pairing of actual and reference steps that match (each step paired at most once), by
 * augmenting paths: with partial arguments one call may match several reference steps, so a
 * greedy pairing could miss one that exists.
 */
function pairs<T>(
  actual: readonly T[],
  reference: readonly T[],
  same: (a: T, r: T) => boolean,
): { readonly actual: Set<number>; readonly reference: Set<number> } {
  const partnerOf = new Map<number, number>(); // reference index → actual index
  const tryPair = (a: number, seen: Set<number>): boolean => {
    for (let r = 0; r < reference.length; r++) {
      if (seen.has(r) || !same(actual[a] as T, reference[r] as T)) continue;
      seen.add(r);
      const current = partnerOf.get(r);
      if (current === undefined || tryPair(current, seen)) {
        partnerOf.set(r, a);
        return true;
      }
    }
    return false;
  };
  for (let a = 0; a < actual.length; a++) tryPair(a, new Set());
  return { actual: new Set(partnerOf.values()), reference: new Set(partnerOf.keys()) };
}

function describe(step: TrajectoryStep | undefined): string {
  if (step === undefined) return 'nothing';
  if ('handoff' in step) return `a handoff to '${step.handoff}'`;
  return `${step.tool}(${JSON.stringify(step.args ?? {})})`;
}
