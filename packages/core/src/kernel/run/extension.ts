import type { AnyAgent } from '../agent/agent.js';
import type { ApprovalDecision, PendingApproval } from '../protocol/approval.js';
import type { ModelCallError } from '../errors/model-call-error.js';
import type { ToolCallError } from '../errors/tool-call-error.js';
import type { LanguageModel, ModelResponse } from '../model/language-model.js';
import type { ToolCallRequest } from '../protocol/message.js';
import type { Usage } from '../protocol/usage.js';
import type { AnyTool } from '../tool/tool.js';
import type { ToolCallOutcome } from '../tool/execute-tool-call.js';
import type { Redaction } from '../trace/redaction.js';
import type { OpenSpan } from '../trace/run-tracer.js';
import type { CostTally } from '../protocol/cost-tally.js';
import type { PausedTurn } from './agent-outcome.js';
import type { AgentTurn } from './agent-turn.js';
import type { ModelCallInput } from './call-model.js';
import type { LlmIdentity } from './llm-event-fields.js';
import type { Stop, ToolCheck, ToolStep } from './next-step.js';
import type { KernelOptions } from './run-options.js';
import type { RunState } from './run-state.js';
import type { ToolCallingMode } from './tool-calling.js';

export type { AgentTurn } from './agent-turn.js';
export type { ModelCallInput } from './call-model.js';
export type { LlmIdentity } from './llm-event-fields.js';
export type { Stop, ToolCheck, ToolStep } from './next-step.js';
export type { PausedTurn } from './agent-outcome.js';
export type { RunState } from './run-state.js';
export type { ToolCallingMode, AnswerReading } from './tool-calling.js';
export type { Preamble } from './preamble.js';
export type { TextPiece, TextPieceLabel, TextSplitter } from './text-splitter.js';

/**
 * A capability of the loop that is not the turn itself (prices and cost limits, rate limits, circuit
 * breakers, guardrails, approvals, ReAct, the cache, redaction): it enters a run only through the
 * hooks its extension gives, and keeps its own state in that extension. The kernel knows no
 * feature by name.
 */
export interface RunFeature<Options extends object = object> {
  readonly name: string;
  /**
   * Called once when a run starts: the extension that carries the feature through this run, with
   * its state; undefined when the run does not use the feature (its options are off).
   */
  forRun(setup: RunSetup<Options>): RunExtension | undefined;
}

/** What a feature is given when a run starts: the run's options (its own among them). */
export interface RunSetup<Options extends object = object> {
  readonly options: KernelOptions & Options;
  /** The run's totals (a resumed run's start from the paused part's). */
  readonly totals: { readonly usage: Usage; readonly cost: CostTally };
}

/**
 * The hooks of one feature in one run, called by the loop at fixed points. Every hook is optional;
 * one that is absent costs the loop nothing.
 */
export interface RunExtension {
  /**
   * The agents whose turns the extension's hooks take part in (asked once per agent and run);
   * every agent when absent. An extension that has nothing to do for an agent costs its steps
   * nothing.
   */
  appliesTo?(agent: AnyAgent): boolean;
  /** Cleans secrets out of what the run writes, streams and returns (one extension gives it). */
  readonly redaction?: Redaction;
  /** Ways of talking tools with a model other than native tool calls, by `toolCalling` name. */
  readonly toolCalling?: Readonly<Record<string, ToolCallingMode>>;
  /** The model a call of `agent` goes to, given the one it would use (main or fallback). */
  model?(agent: AnyAgent, model: LanguageModel): LanguageModel;
  /** Before a turn's first model call, on the input it starts with: a stop ends the turn. */
  beforeTurn?(turn: AgentTurn, input: string): Promise<Stop | undefined>;
  /** Before a turn's model call is made (the step limit passed): a stop ends the turn instead. */
  beforeModelCall?(turn: AgentTurn, call: ModelCallInput): Promise<Stop | undefined>;
  /**
   * Each attempt at a model, retries and fallbacks included, before its `llm_start`: may wait, and
   * gives what it holds over the attempt.
   */
  modelAttempt?(
    agent: AnyAgent,
    model: LanguageModel,
    call: ModelCallInput,
    state: RunState,
  ): ModelAttemptHold | undefined | Promise<ModelAttemptHold | undefined>;
  /** What an answered call cost, in US dollars; undefined when unknown. The first extension prices. */
  priceCall?(identity: LlmIdentity, response: ModelResponse): number | undefined;
  /** After the model answered a turn's step, before anything reads the answer. */
  afterModelCall?(turn: AgentTurn, response: ModelResponse): void;
  /** On the answer a turn would end with: a stop withholds it (the turn ends without it). */
  beforeAnswer?(turn: AgentTurn, text: string): Promise<Stop | undefined>;
  /** After the model answered a turn's step, before the decision: a check of the tools it asks for. */
  toolCheck?(
    turn: AgentTurn,
    response: ModelResponse,
  ): ToolCheck | undefined | Promise<ToolCheck | undefined>;
  /** The turn pauses on calls that wait for a person: before its state is taken. */
  pause?(turn: AgentTurn, pending: readonly PendingApproval[]): void;
  /**
   * A paused turn goes on with the people's decisions: the step it runs (decisions applied). The
   * first extension that answers decides; without one the paused step runs as it was.
   */
  resume?(
    turn: AgentTurn,
    paused: PausedTurn,
    decisions: readonly ApprovalDecision[],
  ): ToolStep | undefined;
  /**
   * A round of tool calls, their spans open, before any runs: the calls it refuses (by call id),
   * each with the error the model is told.
   */
  beforeToolRound?(round: ToolRound): Promise<ReadonlyMap<string, ToolCallError> | undefined>;
  /** Each attempt of an ordinary tool's call, before it runs, with its span open. */
  toolAttempt?(
    agent: AnyAgent,
    tool: AnyTool,
    call: ToolCallRequest,
    state: RunState,
  ): ToolAttemptHold | undefined;
}

/** What an extension holds over one model attempt. */
export interface ModelAttemptHold {
  /** Inside the attempt's span, before the request: an error refuses the call (its failure). */
  refusal?(): ModelCallError | undefined;
  /** After the attempt: its response, or what it threw. */
  settle?(outcome: { readonly response: ModelResponse } | { readonly error: unknown }): void;
}

/** A round of an agent's tool calls, in the order the model asked for them. */
export interface ToolRound {
  readonly agent: AnyAgent;
  readonly state: RunState;
  readonly calls: readonly {
    readonly call: ToolCallRequest;
    /** The parsed arguments. */
    readonly args: unknown;
    /** 1 on the first attempt; retries are later rounds. */
    readonly attempt: number;
    readonly span: OpenSpan;
  }[];
}

/** What an extension holds over one tool attempt. */
export interface ToolAttemptHold {
  /** Before the tool runs: an error refuses the call (it does not run). */
  refusal?(): ToolCallError | undefined;
  /** After the tool ran. */
  settle?(outcome: ToolCallOutcome): void;
}
