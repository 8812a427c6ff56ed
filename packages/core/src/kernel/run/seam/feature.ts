import type { ModelCallError } from '../../errors/model-call-error.js';
import type { ToolCallError } from '../../errors/tool-call-error.js';
import type { Usage } from '../../protocol/usage.js';
import type { CostTally } from '../../protocol/cost-tally.js';
import type { KernelOptions } from '../frame/kernel-options.js';
import type { FeatureHooks } from './feature-hooks.js';
import type { FeatureContext } from './hook-context.js';
import type { KeptState } from './kept-state.js';

export type {
  AnswerAt,
  DecidedStep,
  FeatureHooks,
  FinalAnswerAt,
  ModelAttemptHold,
  ModelCallAt,
  ModelCallRequest,
  ModelChoice,
  ObserveHooks,
  PauseAt,
  PauseHooks,
  PausedStep,
  PricedCall,
  RefuseHooks,
  ResumeAt,
  RoundCall,
  ServiceHooks,
  StopHooks,
  ToolAttemptAt,
  ToolAttemptHold,
  ToolResultAt,
  ToolRoundAt,
  TransformHooks,
  TurnStartAt,
} from './feature-hooks.js';
export type {
  FeatureContext,
  FeatureEventName,
  MaybePromise,
  RecordEvent,
} from './hook-context.js';
export type { KeptState } from './kept-state.js';
export type { LlmIdentity } from '../turn/llm-event-fields.js';
export type { Interrupt, Stop, ToolCheck, ToolStep } from '../turn/next-step.js';
export type { ToolCallingMode, AnswerReading } from '../turn/tool-calling.js';
export type { Preamble } from '../turn/preamble.js';
export type { TextPiece, TextPieceLabel, TextSplitter } from '../turn/text-splitter.js';

/**
 * The version of the feature contract this release speaks: a {@link Feature} says which one it is
 * written for, so that a later contract can be added beside this one and a feature written for
 * another is refused with a clear error, not called with hooks of another shape.
 */
export const featureVersion = 2;

/**
 * A capability of a run that is not the turn itself — prices and cost limits, rate limits,
 * circuit breakers, guardrails, approvals, ReAct, the cache, redaction, or one of your own. It
 * enters a run only through the hooks it gives for that run; the loop knows no feature by name.
 * A run's features are `run(agent, input, { features })`, `standardFeatures` when not given.
 */
export interface Feature<Options extends object = object> {
  /**
   * The feature's name: lower case letters, digits, `-`, `_` and `.`. Its own events and its
   * refusals carry it, and the trace names it where its transforms changed something.
   */
  readonly name: string;
  /** The feature contract it is written for: {@link featureVersion}. */
  readonly version: typeof featureVersion;
  /**
   * Called once when a run starts: the hooks that carry the feature through this run, with its
   * state; undefined when the run does not use the feature (its options are off).
   */
  forRun(setup: FeatureSetup<Options>): FeatureHooks | undefined;
}

/**
 * What a feature is given when a run starts: the run's options (its own among them), its totals,
 * and what the feature may write in its own name (its events, its refusals).
 */
export interface FeatureSetup<Options extends object = object> {
  readonly options: KernelOptions & Options;
  /** The run's totals so far, kept up to date (a resumed run's start from the paused part's). */
  readonly totals: { readonly usage: Usage; readonly cost: CostTally };
  /**
   * Writes an event of the feature's own, `<feature>.<name>` (a `feature` event), under the span
   * the hook given `at` is called in: `emit(at, 'scrubbed', { addresses: 2 })`.
   */
  readonly emit: (
    at: FeatureContext,
    name: string,
    data?: Readonly<Record<string, unknown>>,
  ) => void;
  /**
   * The error a tool call this feature refuses ends with: kind `refused`, carrying the feature's
   * name and `kind`, its own reason (`quota_exceeded`). The model reads `message`.
   */
  readonly refuseTool: (refusal: {
    toolName: string;
    kind: string;
    message: string;
  }) => ToolCallError;
  /** The error a model call this feature refuses ends with (kind `refused`, as `refuseTool`). */
  readonly refuseModel: (refusal: { kind: string; message: string }) => ModelCallError;
  /**
   * State the feature keeps beyond this run that its decisions read (shared by runs, or left by
   * earlier ones): read it through here, so the recording keeps what the run read and a rerun
   * reads it back (see {@link KeptState}).
   */
  readonly kept: KeptState;
}
