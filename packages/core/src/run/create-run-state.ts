import { ConfigurationError } from '../errors/configuration-error.js';
import { Redactor } from '../redaction/redactor.js';
import { RunTimeoutError } from '../errors/run-timeout-error.js';
import { zeroUsage } from '../protocol/usage.js';
import { RunTracer, type TraceEventFields } from '../trace/run-tracer.js';
import { environmentSinks } from '../trace/environment-export.js';
import { isTraceSink, type SinkHealth, type TraceSink } from '../trace/trace-sink.js';
import { systemClock } from '../util/clock.js';
import { randomIds } from '../util/ids.js';
import { ChunkSequence } from './chunk-sequence.js';
import { costSummary, emptyTally, type CostTally } from '../cost/cost.js';
import { PriceTable } from '../cost/prices.js';
import type { AgentOutcome } from './agent-outcome.js';
import type { RunStateSnapshot } from './run-snapshot.js';
import { runAgent } from './run-agent.js';
import type { BudgetLimit, RunState } from './run-state.js';
import { toTraceError } from './to-trace-error.js';
import type { RunOptions } from './run-options.js';

/** What a run that goes on from a pause starts from: its ids, seq, counts and totals. */
export type PausedRun = Pick<
  RunStateSnapshot['run'],
  | 'id'
  | 'session'
  | 'traceId'
  | 'pausedAtSeq'
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
    session: tracer.session,
    traceId: tracer.traceId,
    pausedAtSeq: tracer.nextSeq - 1,
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

/** How a run ended, as its `run_end` seal records it. */
export type RunEnding = Pick<
  AgentOutcome,
  'stopReason' | 'output' | 'error' | 'limit' | 'detail' | 'degradedTools'
>;

/** The run's `timeoutMs` as an abort signal, combined with the caller's `signal`. */
export function runDeadline(options: RunOptions): {
  signal: AbortSignal | undefined;
  clear(): void;
} {
  const { timeoutMs } = options;
  if (timeoutMs === undefined) return { signal: options.signal, clear: () => undefined };
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(new RunTimeoutError({ timeoutMs })), timeoutMs);
  return {
    signal:
      options.signal === undefined ? timer.signal : AbortSignal.any([options.signal, timer.signal]),
    clear: () => clearTimeout(timeout),
  };
}

/**
 * Where a run's events go: its `trace` option's sinks, and the OTLP export the environment asks
 * for (see `environmentSinks`).
 */
export async function runSinks(options: RunOptions): Promise<readonly TraceSink[]> {
  const own = toSinks(options.trace);
  const exporting = await environmentSinks(own, options.autoExport);
  return exporting.length === 0 ? own : [...own, ...exporting];
}

/** What the agents and phases of one run share. */
export function createRunState(
  /** The entry agent or the workflow: what a live sink names the run. */
  name: string,
  options: RunOptions,
  signal: AbortSignal | undefined,
  streaming: boolean,
  resumed: { readonly run: PausedRun } | undefined,
  /** Where the events go: {@link runSinks}. */
  sinks: readonly TraceSink[],
): RunState {
  const { clock = systemClock, ids = randomIds } = options;
  const runId = resumed?.run.id ?? ids.runId();
  const totals = { usage: resumed?.run.usage ?? zeroUsage, cost: restoredTally(resumed) };
  const redactor = options.redaction === false ? undefined : new Redactor(options.redaction);
  const tracer = new RunTracer({
    redactor,
    sinks,
    runId,
    session: resumed?.run.session ?? options.session ?? runId,
    clock,
    ids,
    name,
    ...(resumed === undefined
      ? {}
      : {
          continues: {
            traceId: resumed.run.traceId,
            seq: resumed.run.pausedAtSeq + 1,
            counts: resumed.run.counts,
          },
        }),
  });
  return {
    tracer,
    chunks: new ChunkSequence(clock, tracer.session, redactor, streaming),
    redactor,
    signal,
    streaming,
    clock,
    random: options.random ?? Math.random,
    steps: [...(resumed?.run.steps ?? [])],
    toolCalls: [...(resumed?.run.toolCalls ?? [])],
    guardrailFindings: [],
    overrides: options.overrides ?? {},
    handoffs: [...(resumed?.run.handoffs ?? [])],
    describedAgents: new Set(),
    runBreakers: new WeakMap(),
    runAgent,
    totals,
    prices:
      options.prices === undefined
        ? defaultPriceTable
        : options.prices instanceof PriceTable
          ? options.prices
          : new PriceTable(options.prices),
    budgets: budgetsOf(options, totals),
    sharedBudget: options.budget,
    rateLimits: options.rateLimits,
  };
}

/** The known prices, as a run without its own uses them: built once. */
const defaultPriceTable = new PriceTable();

/** The cost limits a run keeps: its `maxCostUsd` (on the run's total) and a shared budget. */
function budgetsOf(options: RunOptions, totals: RunState['totals']): BudgetLimit[] {
  const budgets: BudgetLimit[] = [];
  const { maxCostUsd, budget } = options;
  if (maxCostUsd !== undefined) {
    if (!Number.isFinite(maxCostUsd) || maxCostUsd < 0)
      throw new ConfigurationError({
        option: 'maxCostUsd',
        message: `Invalid maxCostUsd: expected US dollars, 0 or more (actual: ${String(maxCostUsd)}).`,
      });
    budgets.push({ name: 'maxCostUsd', limitUsd: maxCostUsd, spentUsd: () => totals.cost.usd });
  }
  if (budget !== undefined)
    budgets.push({ name: budget.name, limitUsd: budget.limitUsd, spentUsd: () => budget.spentUsd });
  return budgets;
}

/** The cost tally a resumed run starts from: the paused part's. */
function restoredTally(resumed: { readonly run: PausedRun } | undefined): CostTally {
  const tally = emptyTally();
  if (resumed === undefined) return tally;
  tally.usd = resumed.run.cost.usd;
  tally.unpricedCalls = resumed.run.cost.unpricedCalls;
  for (const model of resumed.run.cost.unpricedModels) tally.unpricedModels.add(model);
  return tally;
}

/** The seal of the run: how it ended, its counts and totals, and the health of its export. */
export function runEndFields(
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
