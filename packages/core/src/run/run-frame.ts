import { ConfigurationError } from '../errors/configuration-error.js';
import { RunTimeoutError } from '../errors/run-timeout-error.js';
import { costSummary } from '../cost/cost.js';
import { environmentSinks } from '../trace/environment-export.js';
import type { OpenSpan, TraceEventFields } from '../trace/run-tracer.js';
import { isTraceSink, type SinkHealth, type TraceSink } from '../trace/trace-sink.js';
import type { AgentOutcome } from './agent-outcome.js';
import { createRunState, type PausedRun } from './create-run-state.js';
import type { RunOptions } from './run-options.js';
import type { RunState } from './run-state.js';
import { toTraceError } from './to-trace-error.js';
import { deadline } from '../util/deadline.js';

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
 * Opens a run named `name` (its entry agent, workflow or planner): finds its sinks, starts its
 * deadline, makes its state and writes `run_start` with `start`, and with where a resumed run
 * goes on from.
 */
export async function openRun(
  name: string,
  options: RunOptions,
  start: Omit<TraceEventFields<'run_start'>, 'resumed'>,
  how: {
    readonly streaming?: boolean;
    readonly resumed?: { readonly run: PausedRun } | undefined;
  } = {},
): Promise<RunFrame> {
  const sinks = await runSinks(options);
  const limit = deadline(
    options.signal,
    options.timeoutMs,
    timeoutMs => new RunTimeoutError({ timeoutMs }),
  );
  let state: RunState;
  try {
    state = createRunState(name, options, limit.signal, how.streaming ?? false, how.resumed, sinks);
  } catch (error) {
    limit.clear();
    throw error;
  }
  const { tracer } = state;
  const { input, ...more } = start;
  const span = tracer.start('run_start', name, null, {
    input,
    ...(how.resumed === undefined ? {} : { resumed: { after_seq: how.resumed.run.pausedAtSeq } }),
    ...more,
  });
  return {
    state,
    span,
    close: async ending => {
      tracer.end(span, runEndFields(state, ending, await tracer.sinkHealth()));
      limit.clear();
      await tracer.flush();
    },
  };
}

/** How a run ended, as its `run_end` seal records it. */
export type RunEnding = Pick<
  AgentOutcome,
  'stopReason' | 'output' | 'error' | 'limit' | 'detail' | 'degradedTools'
>;

/**
 * Where a run's events go: its `trace` option's sinks, and the OTLP export the environment asks
 * for (see `environmentSinks`).
 */
async function runSinks(options: RunOptions): Promise<readonly TraceSink[]> {
  const own = toSinks(options.trace);
  const exporting = await environmentSinks(own, options.autoExport);
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
    ...(outcome?.limit === undefined ? {} : { limit: outcome.limit }),
    ...(outcome?.detail === undefined ? {} : { detail: outcome.detail }),
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
    ...(tracer.counts.llm_calls === 0 ? {} : { cost: costSummary(state.totals.cost) }),
  };
}

function toSinks(trace: RunOptions['trace']): readonly TraceSink[] {
  if (trace === undefined) return [];
  const sinks = isTraceSink(trace) ? [trace] : trace;
  if (!Array.isArray(sinks) || !sinks.every(isTraceSink)) {
    throw new ConfigurationError({
      option: 'trace',
      message:
        "Invalid 'trace' option: expected a trace sink or an array of sinks, such as jsonlSink('traces/run.jsonl') or memorySink().",
    });
  }
  return sinks;
}
