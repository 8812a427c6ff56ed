import type { AnyAgent } from '../../agent/agent.js';
import type { ApprovalDecision, PendingApproval } from '../../protocol/approval.js';
import type { ModelCallError } from '../../errors/model-call-error.js';
import type { ToolCallError } from '../../errors/tool-call-error.js';
import type { LanguageModel, ModelRequest, ModelResponse } from '../../model/language-model.js';
import type { ToolCallRequest } from '../../protocol/message.js';
import type { Usage } from '../../protocol/usage.js';
import type { AnyTool } from '../../tool/tool.js';
import type { ToolCallOutcome } from '../../tool/execute-tool-call.js';
import type { Redaction } from '../../trace/redaction.js';
import type { PointEventName, TraceEventFields } from '../../trace/run-tracer.js';
import type { CostTally } from '../../protocol/cost-tally.js';
import type { Clock } from '../../util/clock.js';
import type { LlmIdentity } from '../turn/llm-event-fields.js';
import type { Stop, ToolCheck, ToolStep } from '../turn/next-step.js';
import type { KernelOptions } from '../frame/run-options.js';
import type { ToolCallingMode } from '../turn/tool-calling.js';

export type { LlmIdentity } from '../turn/llm-event-fields.js';
export type { Interrupt, Stop, ToolCheck, ToolStep } from '../turn/next-step.js';
export type { ToolCallingMode, AnswerReading } from '../turn/tool-calling.js';
export type { Preamble } from '../turn/preamble.js';
export type { TextPiece, TextPieceLabel, TextSplitter } from '../turn/text-splitter.js';

/**
 * A capability of a run that is not the turn itself — prices and cost limits, rate limits,
 * circuit breakers, guardrails, approvals, ReAct, the cache, redaction, or one of your own. It
 * enters a run only through the hooks it gives for that run; the loop knows no feature by name.
 * A run's features are `run(agent, input, { features })`, `standardFeatures` when not given.
 */
export interface Feature<Options extends object = object> {
  readonly name: string;
  /**
   * Called once when a run starts: the hooks that carry the feature through this run, with its
   * state; undefined when the run does not use the feature (its options are off).
   */
  forRun(setup: FeatureSetup<Options>): FeatureHooks | undefined;
}

/** What a feature is given when a run starts: the run's options (its own among them). */
export interface FeatureSetup<Options extends object = object> {
  readonly options: KernelOptions & Options;
  /** The run's totals so far, kept up to date (a resumed run's start from the paused part's). */
  readonly totals: { readonly usage: Usage; readonly cost: CostTally };
}

/** The events a feature may write into the run's trace. */
export type FeatureEventName = Exclude<PointEventName, 'retry' | 'malformed_answer' | 'plan'>;

/** Writes an event of the run's trace under the span a hook is called in. */
export type RecordEvent = <Name extends FeatureEventName>(
  name: Name,
  fields: TraceEventFields<Name>,
) => void;

/**
 * Where a hook is called: the run's read-only facts, the agent whose turn it is, and what a
 * feature may do there besides answering (write an event, wait on the run's clock).
 */
export interface FeatureContext {
  readonly runId: string;
  /** The session written on every event (the run id unless the run was given one). */
  readonly session: string;
  readonly agent: AnyAgent;
  /** The agent's model calls so far in this turn (the call about to be made not counted). */
  readonly step: number;
  /** The run's clock: a virtual one in tests. */
  readonly clock: Clock;
  /** The run's abort signal, when it has one. */
  readonly signal: AbortSignal | undefined;
  /**
   * Writes an event under the agent's span. A `guardrail` event is also one of the findings the
   * run's result lists.
   */
  readonly record: RecordEvent;
  /** Waits `ms` on the run's clock; an aborted run ends the wait with its abort error. */
  wait(ms: number): Promise<void>;
}

/** A hook's answer, given now or once it has waited. */
export type MaybePromise<Value> = Value | Promise<Value>;

/** What a model is asked: its instructions, the messages shown, the tools offered. */
export type ModelCallRequest = Pick<ModelRequest, 'instructions' | 'messages' | 'tools'>;

/** A step that paused for people's approval: the step, and the calls that wait. */
export interface PausedStep {
  readonly step: ToolStep;
  readonly pending: readonly PendingApproval[];
}

/**
 * A paused step with people's decisions applied: the step that runs, and the calls refused (each
 * answered to the model with `message`, in this order, and not run).
 */
export interface DecidedStep {
  readonly step: ToolStep;
  readonly refused: readonly { readonly call: ToolCallRequest; readonly message: string }[];
}

/** A tool call's result as the model is about to read it. */
export interface ToolResultView {
  readonly call: ToolCallRequest;
  /** What the model reads: the result as text, or the error's message. */
  readonly content: string;
  /** True when the call failed and `content` is its error. */
  readonly isError: boolean;
}

/** A call of a round of tool calls, as a feature sees it before the round runs. */
export interface RoundCall {
  readonly call: ToolCallRequest;
  /** The parsed arguments. */
  readonly args: unknown;
  /** 1 on the first attempt; retries are later rounds. */
  readonly attempt: number;
  /** Writes an event under the call's span. */
  readonly record: RecordEvent;
}

/**
 * The hooks of one feature in one run, called by the loop at fixed points, each with a
 * {@link FeatureContext} and small values, and answering from a closed set: nothing (go on), a
 * replacement (`model`), a {@link Stop}, a refusal (an error the call ends with), a wait (a
 * promise), or a pause for a person (a {@link ToolCheck}'s interrupt). Every hook is optional;
 * one that is absent costs the loop nothing.
 */
export interface FeatureHooks {
  /**
   * The agents whose turns the hooks take part in (asked once per agent and run); every agent
   * when absent. Hooks with nothing to do for an agent cost its steps nothing.
   */
  appliesTo?(agent: AnyAgent): boolean;
  /** Cleans secrets out of what the run writes, streams and returns (the first feature's). */
  readonly redaction?: Redaction;
  /** Ways of talking tools with a model other than native tool calls, by `toolCalling` name. */
  readonly toolCalling?: Readonly<Record<string, ToolCallingMode>>;
  /** What an answered call cost, in US dollars (`llm_end`'s `cost_usd`); the first feature's. */
  priceCall?(identity: LlmIdentity, response: ModelResponse): number | undefined;
  /** Replaces the model a call of `agent` goes to, given the one it would use. */
  model?(agent: AnyAgent, model: LanguageModel): LanguageModel;
  /** Before a turn's first model call, on its input: a stop ends the turn. */
  beforeTurn?(at: FeatureContext, input: string): MaybePromise<Stop | undefined>;
  /** Before a model call (the step limit passed), to `model`: a stop ends the turn instead. */
  beforeModelCall?(
    at: FeatureContext,
    model: LanguageModel,
    request: ModelCallRequest,
  ): MaybePromise<Stop | undefined>;
  /**
   * Each attempt at a model, retries and fallbacks included, before its `llm_start`: may wait,
   * and gives what it holds over the attempt.
   */
  modelAttempt?(
    at: FeatureContext,
    model: LanguageModel,
    request: ModelCallRequest,
  ): MaybePromise<ModelAttemptHold | undefined>;
  /** After the model answered a turn's step, before anything reads the answer. */
  afterModelCall?(at: FeatureContext, response: ModelResponse): void;
  /** On the answer a turn would end with: a stop withholds it (the turn ends without it). */
  beforeAnswer?(at: FeatureContext, text: string): MaybePromise<Stop | undefined>;
  /**
   * After the model answered, before the loop decides: a check of the tools the answer asks
   * for, which may stop the turn or pause it for a person.
   */
  toolCheck?(at: FeatureContext, response: ModelResponse): MaybePromise<ToolCheck | undefined>;
  /** The turn pauses on calls that wait for a person (a check's interrupt). */
  pause?(at: FeatureContext, pending: readonly PendingApproval[]): void;
  /**
   * A paused turn goes on with people's decisions: the step it runs. The first feature that
   * answers decides; without one the paused step runs as it was.
   */
  resume?(
    at: FeatureContext,
    paused: PausedStep,
    decisions: readonly ApprovalDecision[],
  ): DecidedStep | undefined;
  /**
   * A round of tool calls, their spans open, before any runs: the calls it refuses (by call id),
   * each with the error the model is told.
   */
  beforeToolRound?(
    at: FeatureContext,
    calls: readonly RoundCall[],
  ): MaybePromise<ReadonlyMap<string, ToolCallError> | undefined>;
  /**
   * Rewrites what the model reads of a tool call's result, before the conversation takes it (a
   * scrub of what a tool returned): the content the model reads instead, or undefined to leave it.
   * Features rewrite in order, each given the content the one before gave. The call's `tool_end`
   * keeps what the tool returned; the next `llm_start` records what the model was sent, so a
   * rerun compares it and a changed rewrite shows.
   */
  toolResult?(at: FeatureContext, result: ToolResultView): string | undefined;
  /** Each attempt of an ordinary tool's call, before it runs, with its span open. */
  toolAttempt?(
    at: FeatureContext,
    tool: AnyTool,
    call: ToolCallRequest,
  ): ToolAttemptHold | undefined;
}

/** What a feature holds over one model attempt. */
export interface ModelAttemptHold {
  /** Inside the attempt's span, before the request: an error refuses the call (its failure). */
  refusal?(): ModelCallError | undefined;
  /** After the attempt: its response, or what it threw. */
  settle?(outcome: { readonly response: ModelResponse } | { readonly error: unknown }): void;
}

/** What a feature holds over one tool attempt. */
export interface ToolAttemptHold {
  /** Before the tool runs: an error refuses the call (it does not run). */
  refusal?(): ToolCallError | undefined;
  /** After the tool ran. */
  settle?(outcome: ToolCallOutcome): void;
}
