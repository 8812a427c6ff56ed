import { ConfigurationError } from '../../errors/configuration-error.js';
import { RunTimeoutError } from '../../errors/run-timeout-error.js';
import { costSummary } from '../../protocol/cost-tally.js';
import type { Message } from '../../protocol/message.js';
import { toTraceMessage } from '../../protocol/trace-message.js';
import { defaultExportSinks } from '../../trace/default-export.js';
import type { OpenSpan, RunTracer, TraceEventFields } from '../../trace/run-tracer.js';
import {
  isTraceSink,
  traceSinkVersion,
  type SinkHealth,
  type TraceSink,
} from '../../trace/trace-sink.js';
import type { AgentOutcome } from '../turn/agent-outcome.js';
import type { Feature } from '../seam/feature.js';
import { claimResume } from '../../trace/resume-ledger.js';
import { createRunState, type ResumedFrom } from './create-run-state.js';
import type { KernelOptions, ResumeOnceOptions } from './kernel-options.js';
import type { RunState } from './run-state.js';
import { toTraceError } from './to-trace-error.js';
import { systemClock } from '../../util/clock.js';
import { deadline } from '../../util/deadline.js';
import { defined } from '../../util/defined.js';
import { assertRelease } from '../../errors/assert-release.js';

/**
 * A run as `run()`, `runWorkflow()` and `planAndRun()` all open and seal it: its shared state, its
 * `run_start` span, and its deadline.
 */
export interface RunFrame {
  readonly state: RunState;
  readonly span: OpenSpan<'run_start'>;
  /**
   * Seals the run: `run_end` with how it ended (undefined: aborted) and the sinks' health, then
   * clears the deadline and flushes the sinks.
   */
  readonly close: (ending: RunEnding | undefined) => Promise<void>;
}

/**
 * Opens a run named `name` (its entry agent, workflow or planner): finds its sinks, claims a
 * resumed run's state (it goes on once; a fork does not use it up), starts its deadline, makes its
 * state and writes `run_start` with `start`, and with where a resumed run goes on from.
 */
export async function openRun<Options extends object>(
  name: string,
  options: KernelOptions & ResumeOnceOptions & Options,
  start: Omit<TraceEventFields<'run_start'>, 'resumed'>,
  how: {
    /** The features the run has (the standard ones, for `run` and the workflows). */
    readonly features: readonly Feature<Options>[];
    readonly streaming?: boolean;
    readonly resumed?: ResumedFrom | undefined;
  },
): Promise<RunFrame> {
  assertRelease(options.release);
  const sinks = runSinks(options);
  const resumed = how.resumed === undefined ? undefined : { ...how.resumed, fork: options.fork };

  const limit = deadline(
    options.signal,
    options.timeoutMs,
    timeoutMs => new RunTimeoutError({ timeoutMs }),
  );
  let state: RunState;
  try {
    state = createRunState({
      name,
      options,
      signal: limit.signal,
      streaming: how.streaming ?? false,
      resumed,
      sinks,
      features: how.features,
    });
    if (resumed !== undefined && resumed.fork !== true) await claim(resumed, options, sinks);
  } catch (error) {
    limit.clear();
    throw error;
  }
  const { tracer } = state;
  const { input, ...more } = start;
  const span = tracer.start('run_start', name, null, {
    input,
    ...resumedFields(resumed),
    ...more,
    ...defined('timeout_ms', options.timeoutMs),
    ...defined('release', options.release),
  });
  const stop = stopPlace(limit.signal, tracer);
  return {
    state,
    span,
    close: async ending => {
      const fields = runEndFields(state, ending, await tracer.sinkHealth());
      const stoppedMade = stop.made();
      const outside = fields.stop_reason === 'aborted' || fields.stop_reason === 'timeout';
      tracer.end(
        span,
        outside && stoppedMade !== undefined ? { ...fields, stopped_made: stoppedMade } : fields,
      );
      limit.clear();
      await tracer.flush();
    },
  };
}

/**
 * Where a stop from outside (the caller's signal, a stream's reader, the deadline) reached the
 * run: how many events it had made then, which a rerun stops at. Read once the run ends.
 */
function stopPlace(
  signal: AbortSignal | undefined,
  tracer: RunTracer,
): { made(): number | undefined } {
  if (signal === undefined || !tracer.recording) return { made: () => undefined };
  let made: number | undefined;
  const note = (): void => {
    made ??= tracer.made;
  };
  if (signal.aborted) note();
  else signal.addEventListener('abort', note, { once: true });
  return {
    made: () => {
      signal.removeEventListener('abort', note);
      return made;
    },
  };
}

/**
 * `run_start.history`: the conversation a run starts from, when it has one; for a turn whose
 * first `carried` messages are its previous turn's history (recorded there), only the rest.
 */
export function historyFields(
  history: readonly Message[] | undefined,
  carried = 0,
): Pick<TraceEventFields<'run_start'>, 'history'> {
  return history === undefined || history.length <= carried
    ? {}
    : { history: history.slice(carried).map(toTraceMessage) };
}

/** `run_start.conversation` for a turn of a conversation, or nothing. */
export function conversationFields(
  conversation: KernelOptions['conversation'],
): Pick<TraceEventFields<'run_start'>, 'conversation'> {
  if (conversation === undefined) return {};
  const { id, turn, role, carried } = conversation;
  return {
    conversation: {
      id,
      turn,
      ...(role === undefined ? {} : { role }),
      ...(carried === undefined ? {} : { carried }),
    },
  };
}

/** `run_start.forked_from` for a run forked from a recorded one (`forkedFrom`), or nothing. */
export function forkedFromFields(
  forkedFrom: KernelOptions['forkedFrom'],
): Pick<TraceEventFields<'run_start'>, 'forked_from'> {
  if (forkedFrom === undefined) return {};
  const { run, afterStep, seq } = forkedFrom;
  return { forked_from: { run, after_step: afterStep, ...defined('seq', seq) } };
}

/** Claims a resumed run's state in its ledgers: it goes on once, or this throws. */
async function claim(
  resumed: ResumedFrom,
  options: KernelOptions & ResumeOnceOptions,
  sinks: readonly TraceSink[],
): Promise<void> {
  const { id, stateId, pausedAtSeq } = resumed.run;
  const at = new Date((options.clock ?? systemClock).now()).toISOString();
  const ledgers = sinks.flatMap(sink => sink.resumeLedger ?? []);
  await claimResume({ stateId, runId: id, pausedAtSeq, at }, options.resumeLedger, ledgers);
}

/**
 * What `run_start` says of where the run goes on from: the pause it resumes (and the state's id),
 * or, for a fork, the paused run and step it branched from.
 */
function resumedFields(
  resumed: ResumedFrom | undefined,
): Pick<TraceEventFields<'run_start'>, 'resumed' | 'forked_from'> {
  if (resumed === undefined) return {};
  const { id, stateId, pausedAtSeq, steps } = resumed.run;
  return resumed.fork === true
    ? { forked_from: { run: id, after_step: steps.length, seq: pausedAtSeq } }
    : { resumed: { after_seq: pausedAtSeq, state_id: stateId } };
}

/** How a run ended, as its `run_end` seal records it. */
export type RunEnding = Pick<
  AgentOutcome,
  'stopReason' | 'output' | 'error' | 'limit' | 'detail' | 'degradedTools'
>;

/**
 * Where a run's events go: its `trace` option's sinks, and the default export registered for the
 * process (see `setDefaultExport`).
 */
function runSinks(options: KernelOptions): readonly TraceSink[] {
  const own = toSinks(options.trace);
  const exporting = defaultExportSinks(own, options.autoExport);
  return exporting.length === 0 ? own : [...own, ...exporting];
}

/** The seal of the run: how it ended, its counts and totals, and the health of its export. */
function runEndFields(
  state: RunState,
  outcome: RunEnding | undefined,
  health: SinkHealth | undefined,
): Omit<TraceEventFields<'run_end'>, 'duration_ms'> {
  const { tracer } = state;
  return {
    stop_reason: outcome?.stopReason ?? 'aborted',
    last_seq: tracer.nextSeq,
    counts: { events: tracer.nextSeq + 1, ...tracer.counts },
    tok_prompt: state.totals.usage.promptTokens,
    tok_completion: state.totals.usage.completionTokens,
    output: outcome?.output ?? '',
    ...(outcome?.error === undefined ? {} : { error: toTraceError(outcome.error) }),
    ...defined('limit', outcome?.limit ?? deadlineLimit(outcome?.error)),
    ...defined('detail', outcome?.detail),
    ...(tracer.redactions === 0 ? {} : { redactions: tracer.redactions }),
    ...(health === undefined
      ? {}
      : {
          export: {
            dropped_spans: health.dropped,
            failed_spans: health.failed,
            ...(health.pending === undefined || health.pending === 0
              ? {}
              : { pending_spans: health.pending }),
          },
        }),
    ...(outcome === undefined || outcome.degradedTools.length === 0
      ? {}
      : { degraded_tools: [...outcome.degradedTools] }),
    // A cost stop says what was spent, $0 before any call.
    ...(tracer.counts.llm_calls === 0 && outcome?.stopReason !== 'budget_exceeded'
      ? {}
      : { cost: costSummary(state.totals.cost) }),
  };
}

/** The limit a run stopped by its deadline passed: its `timeoutMs`, so a rerun knows it. */
function deadlineLimit(error: unknown): { name: string; value: number } | undefined {
  return error instanceof RunTimeoutError
    ? { name: 'timeoutMs', value: error.timeoutMs }
    : undefined;
}

function toSinks(trace: KernelOptions['trace']): readonly TraceSink[] {
  if (trace === undefined) return [];
  const sinks = isTraceSink(trace) ? [trace] : trace;
  if (!Array.isArray(sinks) || !sinks.every(isTraceSink)) {
    throw new ConfigurationError({
      option: 'trace',
      message:
        "Invalid 'trace' option: expected a trace sink or an array of sinks, such as jsonlSink('traces/run.jsonl') or memorySink().",
    });
  }
  for (const sink of sinks) {
    const { version } = sink as { version?: unknown };
    if (version !== undefined && version !== traceSinkVersion)
      throw new ConfigurationError({
        option: 'trace',
        message: `A trace sink of the run is written for sink contract ${JSON.stringify(version)}; this release speaks version ${traceSinkVersion}. Use a sink made for this release, or update agent-trace.`,
      });
  }
  return sinks;
}
