import {
  isTraceSink,
  type AnyAgent,
  type RunOverrides,
  type LanguageModel,
  type Message,
  type RunOptions,
  type RunResult,
  type TraceEvent,
  type TraceSink,
} from '@agent-trace/core';
import { standaloneStart, toTraceMessage } from '@agent-trace/core/record';
import type { PlanResult, Workflow, WorkflowResult } from '@agent-trace/core/workflow';
import {
  runTargetAsRecorded,
  type PlanTarget,
  type RerunTarget,
  type TargetResult,
} from './rerun-target.js';
import { memorySink } from '../memory-sink.js';
import { compareTraces, type Divergence } from './compare-traces.js';
import { recordedEvents, Recording } from './recording.js';
import { recordedKeptState } from './recorded-kept-state.js';
import { recordedLimits } from './recorded-limits.js';
import { recordedRateLimits } from './recorded-rate-limits.js';
import { withoutStopTiming } from './stop-timing.js';
import { recordedModel } from './recorded-model.js';

/** Options of {@link rerunTrace}. */
export interface RerunTraceOptions {
  /** Run the agents' real tools instead of answering from the recording. @defaultValue false */
  liveTools?: boolean;
  /**
   * The id of the run to rerun, for a trace that holds several (`recordedRuns` lists them).
   * @defaultValue the trace's first run
   */
  runId?: string;
  /**
   * More run options for the rerun (sinks for the new trace, …). Its clock is the recording's
   * unless given: virtual time that recorded answers move on, so recorded waits (backoff, rate
   * limits) take no real time. Its `history`, when given, is the conversation the rerun starts
   * from instead of the recorded one (what if an earlier turn had gone otherwise): the first
   * model call shows the change.
   */
  run?: Omit<RunOptions, 'overrides'>;
}

/** What a rerun found. */
export interface RerunReport<Result = RunResult<unknown>> {
  /** True when the rerun did exactly what the recording did. */
  readonly same: boolean;
  /** The first place the behaviour changed; undefined when `same`. */
  readonly firstDivergence: Divergence | undefined;
  /** Every difference, in order. */
  readonly differences: readonly Divergence[];
  /** The recorded run's events and the rerun's. */
  readonly recorded: readonly TraceEvent[];
  readonly rerun: readonly TraceEvent[];
  /** The rerun's result: an agent run's, or a workflow run's when a workflow was rerun. */
  readonly result: Result;
}

/**
 * Re-executes today's agent code against a recorded trace: each agent's model answers from that
 * agent's recorded model calls, in order, and tools answer with their recorded results, matched by
 * tool name and canonical arguments (`liveTools` runs the real ones). The new run is traced and
 * compared with the recording step by step; the report names the first divergence (seq, agent,
 * expected vs actual) and lists every difference. A run that paused for people's approval and was
 * resumed (in this process or another) goes on from each pause with the decisions the recording
 * holds (approve, reject or edit, and who decided), so both parts are rerun and compared. A run
 * stopped by a cost limit reruns under that limit (see `recordedLimits`) unless `run` sets one.
 *
 * A workflow run is rerun the same way: pass the workflow (as `workflow()` or `loadWorkflow()`
 * makes it today); it runs on the recorded input, its tool steps answered from the recording
 * and its agent steps' models from their recorded calls. A planned run (`planAndRun`) too: pass
 * `{ planner, tools, agents }`; the planner answers from its recorded calls, so it writes the
 * recorded plans, which are loaded and run as today's tools and agents define them.
 *
 * @param trace - the recorded events, or the path of a JSONL trace (its first run is rerun, or
 *   the one `runId` names)
 * @param target - the entry agent of the graph, the workflow, or the planner and its catalog, as
 *   the code defines them today
 */
export async function rerunTrace(
  trace: readonly TraceEvent[] | string,
  agent: AnyAgent,
  options?: RerunTraceOptions,
): Promise<RerunReport>;
export async function rerunTrace(
  trace: readonly TraceEvent[] | string,
  workflow: Workflow,
  options?: RerunTraceOptions,
): Promise<RerunReport<WorkflowResult>>;
export async function rerunTrace(
  trace: readonly TraceEvent[] | string,
  plan: PlanTarget,
  options?: RerunTraceOptions,
): Promise<RerunReport<PlanResult>>;
export async function rerunTrace(
  trace: readonly TraceEvent[] | string,
  target: RerunTarget,
  options?: RerunTraceOptions,
): Promise<RerunReport<TargetResult>>;
export async function rerunTrace(
  trace: readonly TraceEvent[] | string,
  target: RerunTarget,
  options: RerunTraceOptions = {},
): Promise<RerunReport<TargetResult>> {
  const all = await recordedEvents(trace);
  const recording = new Recording(all, options.runId);
  const recorded = recording.events;
  const sink = memorySink();
  const extra = options.run?.trace;
  const sinks: TraceSink[] = [
    sink,
    ...(extra === undefined ? [] : isTraceSink(extra) ? [extra] : extra),
  ];
  /** One recorded model per agent and model (its own or the fallback); answers share the agent's cursor. */
  const models = new Map<string, Map<LanguageModel, LanguageModel>>();
  const overrides: RunOverrides = {
    model: (owner, model) => {
      let own = models.get(owner.name);
      if (own === undefined) {
        own = new Map();
        models.set(owner.name, own);
      }
      let answering = own.get(model);
      if (answering === undefined) {
        answering = recordedModel(owner.name, recording, model);
        own.set(model, answering);
      }
      return answering;
    },
    // Steps of parts that went on side by side wait for the times they were made.
    ...(recording.pace === undefined ? {} : { pace: recording.pace.wait.bind(recording.pace) }),
    // State that outlives a run (a shared breaker, a shared budget) as the recording read it.
    keptState: recordedKeptState(recorded),
    ...(options.liveTools === true
      ? {}
      : {
          tool: ({ toolName, modelArgs }) => recording.replayTool(toolName, modelArgs),
        }),
  };
  // A stop from outside (a signal, a stream's reader) fires where it did; the run's deadline is
  // decided on the recording's clock, not on a real timer.
  const { timeoutMs, signal: own, ...run } = options.run ?? {};
  if (options.liveTools === true) recording.clock.limitsInRealTime();
  recording.stop.arm(timeoutMs);
  if (recording.stop.watches) sinks.push(recording.stop.sink);
  // The rerun's turns, matched to the recorded ones as they start (model answers, paced steps).
  if (recording.turns.askedAgain || recording.pace !== undefined) sinks.push(recording.turns.sink);
  const result = await runTargetAsRecorded(target, recording, {
    // Recorded waits take no real time; a clock of the caller's own replaces the recording's.
    clock: recording.clock,
    ...run,
    // The cost limit that stopped the recorded run, as spent then (see recordedLimits).
    ...recordedLimits(recorded, options.run),
    // The part of a rate-limit wait other runs' calls made is replayed (see recordedRateLimits).
    ...recordedRateLimits(recording, options.run?.rateLimits),
    ...stopSignal(recording, own),
    trace: sinks,
    overrides,
  });
  return rerunReport(recorded, standaloneRerun(sink.events, options.run?.history), result);
}

/**
 * The rerun's events as they read alone: a conversation's turn that recorded only what its history
 * adds to the previous turn's gets the whole history it was given.
 */
function standaloneRerun(
  events: readonly TraceEvent[],
  history: readonly Message[] | undefined,
): readonly TraceEvent[] {
  const start = events[0];
  if (start?.event !== 'run_start' || start.conversation?.carried === undefined) return events;
  return [standaloneStart(start, (history ?? []).map(toTraceMessage)), ...events.slice(1)];
}

/** The report of a rerun: the two runs compared step by step, and what the rerun gave. */
export function rerunReport<Result>(
  recorded: readonly TraceEvent[],
  rerun: readonly TraceEvent[],
  result: Result,
): RerunReport<Result> {
  const differences = withoutStopTiming(compareTraces(recorded, rerun), recorded, rerun);
  return {
    same: differences.length === 0,
    firstDivergence: differences[0],
    differences,
    recorded,
    rerun,
    result,
  };
}

/** The signal of a rerun's run: the caller's, the replayed stop's, both, or none. */
function stopSignal(recording: Recording, own: AbortSignal | undefined): { signal?: AbortSignal } {
  if (!recording.stop.stops) return own === undefined ? {} : { signal: own };
  const { signal } = recording.stop;
  return { signal: own === undefined ? signal : AbortSignal.any([own, signal]) };
}
