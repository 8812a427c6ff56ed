import { zeroUsage } from '../../protocol/usage.js';
import { RunTracer } from '../../trace/run-tracer.js';
import type { TraceSink } from '../../trace/trace-sink.js';
import { systemClock } from '../../util/clock.js';
import { randomIds } from '../../util/ids.js';
import { countedIds } from '../../util/continued-ids.js';
import { continuedClock } from '../../util/continued-clock.js';
import { defined } from '../../util/defined.js';
import { ChunkSequence } from './chunk-sequence.js';
import { emptyTally, type CostTally } from '../../protocol/cost-tally.js';
import type { Feature } from '../seam/feature.js';
import { featuresForRun } from '../seam/feature-setup.js';
import { Seam } from '../seam/seam.js';
import type { RunStateSnapshot } from '../pause/run-snapshot.js';
import type { RunState } from './run-state.js';
import type { KernelOptions } from './kernel-options.js';

/** What a run that goes on from a pause starts from: its ids, seq, counts and totals. */
export type PausedRun = Pick<
  RunStateSnapshot['run'],
  | 'id'
  | 'stateId'
  | 'session'
  | 'traceId'
  | 'pausedAtSeq'
  | 'pausedAtMs'
  | 'ids'
  | 'counts'
  | 'usage'
  | 'cost'
  | 'steps'
  | 'toolCalls'
  | 'handoffs'
>;

/** What a run that pauses now leaves for the one that goes on: its ids, seq, counts and totals. */
export function pausedRun(state: RunState): PausedRun {
  const { tracer } = state;
  return {
    id: tracer.runId,
    // Random, not from the run's ids: a state's id must differ from every other state's, across
    // processes and runs with counting ids alike, for a ledger to tell them apart.
    stateId: globalThis.crypto.randomUUID(),
    session: tracer.session,
    traceId: tracer.traceId,
    pausedAtSeq: tracer.nextSeq - 1,
    // The clock's last reading and the span ids drawn: a resume in a new process goes on after them.
    pausedAtMs: state.clock.now(),
    ...defined('ids', state.ids.drawn()),
    counts: { ...tracer.counts },
    usage: state.totals.usage,
    cost: {
      usd: state.totals.cost.usd,
      unpricedCalls: state.totals.cost.unpricedCalls,
      unpricedModels: [...state.totals.cost.unpricedModels],
    },
    steps: state.steps,
    toolCalls: state.toolCalls,
    handoffs: state.handoffs,
  };
}

/**
 * Where a run goes on from: a paused run's state, continued as the same run or, with `fork`, as a
 * new one (its own id, trace id and seq from 0; the totals and records of the paused part kept).
 */
export interface ResumedFrom {
  readonly run: PausedRun;
  readonly fork?: boolean;
}

/** What a run's state is made from. */
export interface RunStateInput<Options extends object> {
  /** The entry agent or the workflow: what a live sink names the run. */
  readonly name: string;
  readonly options: KernelOptions & Options;
  /** The run's signal: its caller's, with its deadline. */
  readonly signal: AbortSignal | undefined;
  readonly streaming: boolean;
  readonly resumed: ResumedFrom | undefined;
  /** Where the events go: the run's sinks and the environment's export. */
  readonly sinks: readonly TraceSink[];
  /** The features the run has, in the order their hooks are called. */
  readonly features: readonly Feature<Options>[];
}

/** What the agents and phases of one run share. */
export function createRunState<Options extends object>({
  name,
  options,
  signal,
  streaming,
  resumed,
  sinks,
  features,
}: RunStateInput<Options>): RunState {
  const continued = resumed?.fork === true ? undefined : resumed;
  // A part that goes on from a pause goes on after the paused part's ids and times, whatever
  // generator and clock the new process gives it.
  const ids = countedIds(options.ids ?? randomIds, continued?.run.ids);
  const given = options.clock ?? systemClock;
  const pausedAtMs = continued?.run.pausedAtMs;
  const clock = pausedAtMs === undefined ? given : continuedClock(given, pausedAtMs);
  const runId = continued?.run.id ?? ids.runId();
  const totals = { usage: resumed?.run.usage ?? zeroUsage, cost: restoredTally(resumed) };
  const seam = new Seam(featuresForRun(features, { options, totals }));
  const { redaction } = seam;
  const tracer = new RunTracer({
    redaction,
    sinks,
    runId,
    session: continued?.run.session ?? options.session ?? runId,
    clock,
    ids,
    name,
    ...(continued === undefined
      ? {}
      : {
          continues: {
            traceId: continued.run.traceId,
            seq: continued.run.pausedAtSeq + 1,
            counts: continued.run.counts,
          },
        }),
  });
  return {
    tracer,
    chunks: new ChunkSequence(clock, tracer.session, redaction, streaming),
    redaction,
    seam,
    signal,
    streaming,
    clock,
    ids,
    random: options.random ?? Math.random,
    steps: [...(resumed?.run.steps ?? [])],
    toolCalls: [...(resumed?.run.toolCalls ?? [])],
    guardrailFindings: [],
    overrides: options.overrides ?? {},
    handoffs: [...(resumed?.run.handoffs ?? [])],
    describedAgents: new Set(),
    totals,
  };
}

/** The cost tally a resumed run starts from: the paused part's. */
function restoredTally(resumed: ResumedFrom | undefined): CostTally {
  const tally = emptyTally();
  if (resumed === undefined) return tally;
  tally.usd = resumed.run.cost.usd;
  tally.unpricedCalls = resumed.run.cost.unpricedCalls;
  for (const model of resumed.run.cost.unpricedModels) tally.unpricedModels.add(model);
  return tally;
}
