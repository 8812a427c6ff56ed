import type { AnyAgent } from '../../agent/agent.js';
import type { ResumeLedger } from '../../trace/resume-ledger.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { Message } from '../../protocol/message.js';
import type { TraceSink } from '../../trace/trace-sink.js';
import type { Clock } from '../../util/clock.js';
import type { IdGenerator } from '../../util/ids.js';

/** A tool call as an override sees it. */
export interface ToolCallContext {
  readonly agentName: string;
  readonly toolName: string;
  readonly callId: string;
  /** The validated arguments: what the tool's schema made of `modelArgs` (defaults, transforms). */
  readonly args: unknown;
  /**
   * The arguments as the model gave them (its JSON, parsed), before the tool's schema: what the
   * trace records as the call's `args`, so a recording is looked up by them.
   */
  readonly modelArgs: unknown;
}

/**
 * Replaces models and tool executions for one run without rebuilding the agents (whose handoffs
 * and agent tools refer to each other): what `rerunTrace` uses to answer from a recording.
 */
export interface RunOverrides {
  /**
   * The model a call of `agent` goes to, given its own (main or fallback). The features' `model`
   * wrappers wrap the model returned, so they run over it as they ran over the agent's own.
   */
  model?: (agent: AnyAgent, model: LanguageModel) => LanguageModel;
  /** Runs instead of a tool: returns its result or throws its failure; `execute` runs the real tool. */
  tool?: (call: ToolCallContext, execute: () => Promise<unknown>) => Promise<unknown>;
  /**
   * Waits before a step of an agent's turn: a model call (before the features' checks of it), the
   * checks of the model's answer, or a round of tool calls (before their spans open); and before
   * a workflow starts a step. A rerun holds each until the time and place it was decided in the
   * recording when parts of the run went on side by side, so that what they decide together (a
   * cost limit, a breaker, a quota) sees what it saw. Undefined: go on at once. A rejection (a
   * stop from outside the step never got past) ends the turn with it.
   */
  pace?: (step: PacedStep) => Promise<void> | undefined;
  /**
   * In a rerun: called once as each part of the run starts (a resumed run has two), what the
   * recording's part read of the features' kept state. The features then keep their state for
   * this run alone and read what outlives it from here.
   */
  keptState?: () => RecordedKeptState;
}

/**
 * In a rerun: what the recording read of each feature's kept state (`<feature>.kept` events), for
 * one part of the run (a resumed run has two), by feature, key and read (from 1); undefined where
 * it recorded none.
 */
export type RecordedKeptState = (feature: string, key: string, read: number) => unknown;

/**
 * A step of an agent's turn about to be made, or a workflow's step about to start, as
 * {@link RunOverrides.pace} sees it.
 */
export interface PacedStep {
  /** The agent (for a workflow's step: the workflow). */
  readonly agent: string;
  /** The span of the agent's turn (its `agent_start`'s `span_id`; a workflow's `workflow_start`'s). */
  readonly agentSpanId: string;
  /**
   * A model call (the checks before it), the checks of its answer (a cost limit spent, calls
   * awaiting approval), a round of tool calls (retries a round of their own), or a workflow's
   * step whose dependencies have ended.
   */
  readonly kind: 'model_call' | 'checks' | 'tool_round' | 'workflow_step';
  /**
   * The turn's step: the model call about to be made, or the one answered whose checks or tools
   * these are; for a workflow's step, its place in the workflow's steps (from 0).
   */
  readonly step: number;
}

/**
 * The kernel's part of the options of `run` and `stream` (the features add theirs: `RunOptions` is
 * the whole).
 */
export interface KernelOptions {
  /** Where the trace events go: one sink or several. @defaultValue no tracing */
  trace?: TraceSink | readonly TraceSink[];
  /**
   * With a default export registered for the process (`node --import @agent-trace/trace/register`
   * with `TRACE_OTLP_ENDPOINT` set, or `setDefaultExport()`), the run also exports there, unless
   * its own sinks already export (an `otlpSink` or `otelSink`). `false` turns that off.
   * @defaultValue true
   */
  autoExport?: boolean;
  /** Aborts the run: it stops with `aborted`, and its trace is still complete and paired. */
  signal?: AbortSignal;
  /**
   * How long the whole run may take, in milliseconds; past it the run stops with `timeout` (its
   * trace complete and sealed). @defaultValue no timeout
   */
  timeoutMs?: number;
  /**
   * Earlier messages to continue from, e.g. the `messages` of a previous result; cut to the agent's
   * `memory.maxItems`. @defaultValue none
   */
  history?: readonly Message[];
  /** Where retry jitter comes from: a number in [0, 1). @defaultValue Math.random */
  random?: () => number;
  /** Replaces models and tools for this run. @defaultValue none */
  overrides?: RunOverrides;
  /** A session id written on every event. @defaultValue the run id */
  session?: string;
  /**
   * The release of the application making the run: a git commit, a tag or a build id, written on
   * `run_start` (e.g. `process.env.GIT_COMMIT`). Datasets made of runs keep it in each case's
   * lineage; a rerun never compares it. At most 200 characters. @defaultValue none
   */
  release?: string;
  /** Where times come from; pass `steppingClock()` for reproducible traces. @defaultValue the system clock */
  clock?: Clock;
  /** Where ids come from; pass `sequentialIds()` for reproducible traces. @defaultValue random ids */
  ids?: IdGenerator;
  /**
   * Seals the `state` of a run paused for approval with HMAC-SHA-256 under this secret, so a state
   * changed by anyone without it is refused by `resume` (which needs the same secret). Without it
   * the state carries a plain SHA-256, which catches changes made by hand or in storage.
   * @defaultValue none
   */
  stateSecret?: string;
  /**
   * Written on `run_start` for a run forked from a recorded one (`forkTrace` sets it): which run,
   * after which model call. @defaultValue none
   */
  forkedFrom?: { readonly run: string; readonly afterStep: number; readonly seq?: number };
  /**
   * The conversation this run is a turn of, and the turn's 1-based index: written on `run_start`.
   * Set by `conversation()`, which also gives the run the conversation's id as its `session` and
   * the earlier turns' messages as its `history`. @defaultValue none
   */
  conversation?: {
    readonly id: string;
    readonly turn: number;
    readonly role?: 'user';
    /**
     * How many of `history`'s first messages are the previous turn's whole history, recorded on
     * that turn's `run_start`: this turn's records only the rest. `conversation()` sets it for the
     * turns after the first it takes.
     */
    readonly carried?: number;
  };
}

/** How a paused state is used: once (recorded in a ledger), or forked into a new run. */
export interface ResumeOnceOptions {
  /**
   * Where the use of paused states is recorded, so each resumes once (a compare-and-set; see
   * `ResumeLedger`); when given, it alone decides. @defaultValue the ledgers the run's trace
   * sinks keep (beside a `jsonlSink`'s file, in a `memorySink`) and the process's own
   */
  resumeLedger?: ResumeLedger;
  /**
   * Goes on from the state as a new run (a new run id, its own part of the trace, seq from 0, its
   * `run_start` `forked_from` the paused run) instead of the paused run itself: for trying another
   * decision from the same pause. A fork does not use the state up. @defaultValue false
   */
  fork?: boolean;
}
