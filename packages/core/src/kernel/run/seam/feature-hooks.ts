import type { AnyAgent } from '../../agent/agent.js';
import type { ApprovalDecision, PendingApproval } from '../../protocol/approval.js';
import type { ModelCallError } from '../../errors/model-call-error.js';
import type { ToolCallError } from '../../errors/tool-call-error.js';
import type { LanguageModel, ModelRequest, ModelResponse } from '../../model/language-model.js';
import type { ToolCallRequest } from '../../protocol/message.js';
import type { AnyTool } from '../../tool/tool.js';
import type { ToolCallOutcome } from '../../tool/execute-tool-call.js';
import type { Redaction } from '../../trace/redaction.js';
import type { LlmIdentity } from '../turn/llm-event-fields.js';
import type { Stop, ToolCheck, ToolStep } from '../turn/next-step.js';
import type { ToolCallingMode } from '../turn/tool-calling.js';
import type { FeatureContext, MaybePromise, RecordEvent } from './hook-context.js';

/** What a model is asked: its instructions, the messages shown, the tools offered. */
export type ModelCallRequest = Pick<ModelRequest, 'instructions' | 'messages' | 'tools'>;

/** A turn starts: its input. */
export interface TurnStartAt extends FeatureContext {
  readonly input: string;
}

/** A model call: the model it goes to, and the request (after the features' transforms). */
export interface ModelCallAt extends FeatureContext {
  readonly model: LanguageModel;
  readonly request: ModelCallRequest;
}

/** A model answered a turn's step. */
export interface AnswerAt extends FeatureContext {
  readonly response: ModelResponse;
}

/** The answer a turn would end with. */
export interface FinalAnswerAt extends FeatureContext {
  readonly text: string;
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

/** A round of tool calls, their spans open, before any runs. */
export interface ToolRoundAt extends FeatureContext {
  readonly calls: readonly RoundCall[];
}

/** An attempt of an ordinary tool's call, before it runs: `record` writes under the call's span. */
export interface ToolAttemptAt extends FeatureContext {
  readonly tool: AnyTool;
  readonly call: ToolCallRequest;
}

/**
 * A tool call's result as the model is about to read it, after the round's calls ended: `record`
 * writes under the agent's span.
 */
export interface ToolResultAt extends FeatureContext {
  readonly call: ToolCallRequest;
  /** What the model reads: the result as text, or the error's message (after earlier features). */
  readonly content: string;
  /** True when the call failed and `content` is its error. */
  readonly isError: boolean;
}

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

/** The turn pauses on calls that wait for a person. */
export interface PauseAt extends FeatureContext {
  readonly pending: readonly PendingApproval[];
}

/** A paused turn goes on with people's decisions. */
export interface ResumeAt extends FeatureContext {
  readonly paused: PausedStep;
  readonly decisions: readonly ApprovalDecision[];
}

/** A model call of an agent goes to `model`. */
export interface ModelChoice {
  readonly agent: AnyAgent;
  readonly model: LanguageModel;
}

/** An answered model call to price. */
export interface PricedCall {
  readonly identity: LlmIdentity;
  readonly response: ModelResponse;
}

/** Hooks that watch: told what happened, they answer nothing. */
export interface ObserveHooks {
  /** After the model answered a turn's step (and the answer's transforms), before the decision. */
  afterModelCall?(at: AnswerAt): void;
  /** The turn pauses on calls that wait for a person (a check's interrupt). */
  pause?(at: PauseAt): void;
}

/**
 * Hooks that change what the loop sends or reads. Features transform in order, each given what
 * the one before gave; the trace records each change (a `transform` event naming the feature) and
 * what came of it, so a rerun compares it and a changed transform shows.
 */
export interface TransformHooks {
  /**
   * A model call's request before it is checked and sent: the request to send instead, or
   * undefined to leave it. `llm_start` records what was sent.
   */
  transformRequest?(at: ModelCallAt): MaybePromise<ModelCallRequest | undefined>;
  /**
   * The model's answer before the loop reads it: the answer to read instead, or undefined. The
   * `llm_end` keeps what the model said; the conversation and the decision take this one.
   */
  transformAnswer?(at: AnswerAt): MaybePromise<ModelResponse | undefined>;
  /**
   * What the model reads of a tool call's result, before the conversation takes it (a scrub): the
   * content to read instead, or undefined. The call's `tool_end` keeps what the tool returned.
   */
  transformToolResult?(at: ToolResultAt): MaybePromise<string | undefined>;
  /** Replaces the model a call goes to, given the one it would use (a wrapper, a cache). */
  model?(choice: ModelChoice): LanguageModel;
}

/** Hooks that stop an agent's turn: the first {@link Stop} a feature gives ends it. */
export interface StopHooks {
  /** Before a turn's first model call, on its input. */
  beforeTurn?(at: TurnStartAt): MaybePromise<Stop | undefined>;
  /** Before a model call (the step limit passed, the request transformed). */
  beforeModelCall?(at: ModelCallAt): MaybePromise<Stop | undefined>;
  /** On the answer a turn would end with: a stop withholds it (the turn ends without it). */
  beforeAnswer?(at: FinalAnswerAt): MaybePromise<Stop | undefined>;
}

/**
 * Hooks that refuse calls or hold them: a refused call does not run and ends with the refusal's
 * error (make one in the feature's own name with `FeatureSetup.refuseTool` / `refuseModel`); a
 * hold may first wait on the run's clock.
 */
export interface RefuseHooks {
  /**
   * Each attempt at a model, retries and fallbacks included, before its `llm_start`: may wait,
   * and gives what it holds over the attempt (a refusal, a settling).
   */
  modelAttempt?(at: ModelCallAt): MaybePromise<ModelAttemptHold | undefined>;
  /**
   * A round of tool calls, their spans open, before any runs: the calls it refuses (by call id),
   * each with the error the model is told.
   */
  beforeToolRound?(at: ToolRoundAt): MaybePromise<ReadonlyMap<string, ToolCallError> | undefined>;
  /** Each attempt of an ordinary tool's call, before it runs, with its span open. */
  toolAttempt?(at: ToolAttemptAt): ToolAttemptHold | undefined;
}

/** Hooks that pause a turn for a person and go on with their decisions. */
export interface PauseHooks {
  /**
   * After the model answered, before the loop decides: a check of the tools the answer asks
   * for, which may stop the turn or pause it for a person.
   */
  toolCheck?(at: AnswerAt): MaybePromise<ToolCheck | undefined>;
  /**
   * A paused turn goes on with people's decisions: the step it runs. The first feature that
   * answers decides; without one the paused step runs as it was.
   */
  resume?(at: ResumeAt): DecidedStep | undefined;
}

/** What a run takes from the first feature that gives it. */
export interface ServiceHooks {
  /** Cleans secrets out of what the run writes, streams and returns. */
  readonly redaction?: Redaction;
  /** Ways of talking tools with a model other than native tool calls, by `toolCalling` name. */
  readonly toolCalling?: Readonly<Record<string, ToolCallingMode>>;
  /** What an answered call cost, in US dollars (`llm_end`'s `cost_usd`). */
  priceCall?(call: PricedCall): number | undefined;
}

/**
 * The hooks of one feature in one run, grouped by what they may do: observe, transform, stop,
 * refuse (and wait), pause, and the services. Each hook is given one object (the run's facts of
 * {@link FeatureContext} and its own fields), so a later version can add a field without breaking
 * a feature. Every hook is optional; one that is absent costs the loop nothing.
 */
export interface FeatureHooks
  extends ObserveHooks, TransformHooks, StopHooks, RefuseHooks, PauseHooks, ServiceHooks {
  /**
   * The agents whose turns the hooks take part in (asked once per agent and run); every agent
   * when absent. Hooks with nothing to do for an agent cost its steps nothing.
   */
  appliesTo?(agent: AnyAgent): boolean;
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
