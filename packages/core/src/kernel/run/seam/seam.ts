import type { AnyAgent } from '../../agent/agent.js';
import type { ApprovalDecision, PendingApproval } from '../../protocol/approval.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import type { ToolCallError } from '../../errors/tool-call-error.js';
import type { LanguageModel, ModelResponse } from '../../model/language-model.js';
import type { Redaction } from '../../trace/redaction.js';
import type { AnyTool } from '../../tool/tool.js';
import type { ToolCallRequest } from '../../protocol/message.js';
import type { LlmIdentity } from '../turn/llm-event-fields.js';
import type {
  DecidedStep,
  FeatureContext,
  FeatureHooks,
  ModelAttemptHold,
  ModelCallRequest,
  PausedStep,
  RoundCall,
  ToolAttemptHold,
  ToolResultView,
} from './feature.js';
import type { Stop, ToolCheck } from '../turn/next-step.js';
import { nativeToolCalling, type ToolCallingMode } from '../turn/tool-calling.js';

type HookName = Exclude<keyof FeatureHooks, 'redaction' | 'toolCalling' | 'appliesTo'>;
type Hook<Name extends HookName> = NonNullable<FeatureHooks[Name]>;
/** What a model attempt's hooks are given: where, the model and the request. */
type ModelAttempt = Parameters<Hook<'modelAttempt'>>;

/** The hooks of one kind, in the order the features were given, bound to their feature. */
function hooks<Name extends HookName>(features: readonly FeatureHooks[], name: Name): Hook<Name>[] {
  const found: Hook<Name>[] = [];
  for (const feature of features) {
    const hook = feature[name];
    if (hook === undefined) continue;
    // Called on its hooks: a method may keep its state on `this`.
    found.push((hook as (...args: never[]) => unknown).bind(feature) as Hook<Name>);
  }
  return found;
}

/** The first stop the hooks give, asked in order (each waited for before the next). */
async function firstStop<Args extends unknown[]>(
  hooks: readonly ((...args: Args) => Stop | undefined | Promise<Stop | undefined>)[],
  ...args: Args
): Promise<Stop | undefined> {
  for (const hook of hooks) {
    const stop = await hook(...args);
    if (stop !== undefined) return stop;
  }
  return undefined;
}

/**
 * What features hold over an attempt: none, one (the usual case, without an array), or several.
 */
export type Holds<Hold> = Hold | readonly Hold[] | undefined;

/** The first refusal of the holds. */
export function refusalOf<Refusal>(
  holds: Holds<{ refusal?(): Refusal | undefined }>,
): Refusal | undefined {
  if (holds === undefined) return undefined;
  if (!Array.isArray(holds)) return (holds as { refusal?(): Refusal | undefined }).refusal?.();
  for (const hold of holds as readonly { refusal?(): Refusal | undefined }[]) {
    const refusal = hold.refusal?.();
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

/** Tells every hold how the attempt ended. */
export function settleHolds<Outcome>(
  holds: Holds<{ settle?(outcome: Outcome): void }>,
  outcome: Outcome,
): void {
  if (holds === undefined) return;
  if (!Array.isArray(holds)) (holds as { settle?(outcome: Outcome): void }).settle?.(outcome);
  else
    for (const hold of holds as readonly { settle?(outcome: Outcome): void }[])
      hold.settle?.(outcome);
}

/**
 * Where the loop meets the features of a run: the services one feature gives (redaction, ways of
 * talking tools), and for each agent the hooks of the features that take part in its turns.
 */
export class Seam {
  readonly redaction: Redaction | undefined;
  readonly #features: readonly FeatureHooks[];
  readonly #byAgent = new Map<AnyAgent, Hooks>();
  /** The hooks of each set of features that agents take part in, by the set's bits. */
  readonly #bySet = new Map<number, Hooks>();
  readonly #modes = new Map<string, ToolCallingMode>([['native', nativeToolCalling]]);

  constructor(features: readonly FeatureHooks[]) {
    // A set of features is a bit each in a number (forAgent).
    if (features.length > 30)
      throw new ConfigurationError({
        option: 'features',
        message: `A run takes at most 30 features; this one has ${features.length}. Combine some into one feature.`,
      });
    this.#features = features;
    this.redaction = features.find(feature => feature.redaction !== undefined)?.redaction;
    for (const feature of features) {
      if (feature.toolCalling === undefined) continue;
      for (const [name, mode] of Object.entries(feature.toolCalling)) this.#modes.set(name, mode);
    }
  }

  /**
   * The hooks of the features that take part in `agent`'s turns: asked once per agent, gathered
   * once per set of features (most agents of a run share one).
   */
  forAgent(agent: AnyAgent): Hooks {
    let found = this.#byAgent.get(agent);
    if (found === undefined) {
      let key = 0;
      const taking: FeatureHooks[] = [];
      const features = this.#features;
      for (let index = 0; index < features.length; index++) {
        const feature = features[index] as FeatureHooks;
        if (feature.appliesTo !== undefined && !feature.appliesTo(agent)) continue;
        key |= 1 << index;
        taking.push(feature);
      }
      found = this.#bySet.get(key);
      if (found === undefined) {
        found = new Hooks(taking);
        this.#bySet.set(key, found);
      }
      this.#byAgent.set(agent, found);
    }
    return found;
  }

  /** How `agent` talks tools with its model. */
  toolCalling(agent: AnyAgent): ToolCallingMode {
    const mode = this.#modes.get(agent.toolCalling);
    if (mode !== undefined) return mode;
    throw new ConfigurationError({
      option: 'toolCalling',
      message: `Agent '${agent.name}' asks for tool calling '${agent.toolCalling}', which no feature of the run provides (known: ${[...this.#modes.keys()].join(', ')}). Check the agent's toolCalling.`,
    });
  }
}

/**
 * The hooks of some features, gathered by kind, so a point no feature uses costs a step nothing
 * but a length check, and a hook with nothing to wait for is not awaited.
 */
export class Hooks {
  readonly beforeTurns: readonly Hook<'beforeTurn'>[];
  readonly beforeModelCalls: readonly Hook<'beforeModelCall'>[];
  readonly afterModelCalls: readonly Hook<'afterModelCall'>[];
  readonly beforeAnswers: readonly Hook<'beforeAnswer'>[];
  readonly beforeToolRounds: readonly Hook<'beforeToolRound'>[];
  readonly modelAttempts: readonly Hook<'modelAttempt'>[];
  readonly toolChecks: readonly Hook<'toolCheck'>[];
  readonly toolAttempts: readonly Hook<'toolAttempt'>[];
  readonly toolResults: readonly Hook<'toolResult'>[];
  readonly #models: readonly Hook<'model'>[];
  readonly #price: Hook<'priceCall'> | undefined;
  readonly #pauses: readonly Hook<'pause'>[];
  readonly #resumes: readonly Hook<'resume'>[];

  constructor(features: readonly FeatureHooks[]) {
    this.beforeTurns = hooks(features, 'beforeTurn');
    this.beforeModelCalls = hooks(features, 'beforeModelCall');
    this.afterModelCalls = hooks(features, 'afterModelCall');
    this.beforeAnswers = hooks(features, 'beforeAnswer');
    this.beforeToolRounds = hooks(features, 'beforeToolRound');
    this.modelAttempts = hooks(features, 'modelAttempt');
    this.toolChecks = hooks(features, 'toolCheck');
    this.toolAttempts = hooks(features, 'toolAttempt');
    this.toolResults = hooks(features, 'toolResult');
    this.#models = hooks(features, 'model');
    this.#price = hooks(features, 'priceCall')[0];
    this.#pauses = hooks(features, 'pause');
    this.#resumes = hooks(features, 'resume');
  }

  /** Before a turn's first model call: the first stop a feature gives. */
  beforeTurn(at: FeatureContext, input: string): Promise<Stop | undefined> {
    return firstStop(this.beforeTurns, at, input);
  }

  /** Before a model call: the first stop a feature gives. */
  beforeModelCall(
    at: FeatureContext,
    model: LanguageModel,
    request: ModelCallRequest,
  ): Promise<Stop | undefined> {
    return firstStop(this.beforeModelCalls, at, model, request);
  }

  /** What the model reads of a tool call's result: the content, rewritten by each feature in order. */
  toolResult(at: FeatureContext, result: ToolResultView): string {
    let { content } = result;
    for (const hook of this.toolResults) content = hook(at, { ...result, content }) ?? content;
    return content;
  }

  /** After a model answered a turn's step: every feature is told. */
  afterModelCall(at: FeatureContext, response: ModelResponse): void {
    for (const hook of this.afterModelCalls) hook(at, response);
  }

  /** On the answer a turn would end with: the first stop a feature gives. */
  beforeAnswer(at: FeatureContext, text: string): Promise<Stop | undefined> {
    return firstStop(this.beforeAnswers, at, text);
  }

  /** A round of tool calls before they run: the calls the features refuse, by call id. */
  async beforeToolRound(
    at: FeatureContext,
    calls: readonly RoundCall[],
  ): Promise<ReadonlyMap<string, ToolCallError>> {
    const refused = new Map<string, ToolCallError>();
    for (const hook of this.beforeToolRounds) {
      const found = await hook(at, calls);
      if (found !== undefined)
        for (const [callId, error] of found) if (!refused.has(callId)) refused.set(callId, error);
    }
    return refused;
  }

  /**
   * What the features hold over a model attempt: one hold, or several; a promise only when a
   * feature waits (a rate limit), and then the features after it are asked once it has waited.
   */
  holdModelAttempt(
    at: FeatureContext,
    model: LanguageModel,
    request: ModelCallRequest,
  ): Holds<ModelAttemptHold> | Promise<Holds<ModelAttemptHold>> {
    const { modelAttempts } = this;
    if (modelAttempts.length === 1)
      return (modelAttempts[0] as Hook<'modelAttempt'>)(at, model, request);
    const holds: ModelAttemptHold[] = [];
    for (let index = 0; index < modelAttempts.length; index++) {
      const held = (modelAttempts[index] as Hook<'modelAttempt'>)(at, model, request);
      if (held instanceof Promise)
        return this.#waitThenHold([at, model, request], held, holds, index + 1);
      if (held !== undefined) holds.push(held);
    }
    return holds;
  }

  async #waitThenHold(
    attempt: ModelAttempt,
    waiting: Promise<ModelAttemptHold | undefined>,
    holds: ModelAttemptHold[],
    next: number,
  ): Promise<ModelAttemptHold[]> {
    const held = await waiting;
    if (held !== undefined) holds.push(held);
    for (const hook of this.modelAttempts.slice(next)) {
      const more = await hook(...attempt);
      if (more !== undefined) holds.push(more);
    }
    return holds;
  }

  /** What the features hold over a tool attempt: one hold, or several. */
  holdToolAttempt(
    at: FeatureContext,
    tool: AnyTool,
    call: ToolCallRequest,
  ): Holds<ToolAttemptHold> {
    const { toolAttempts } = this;
    if (toolAttempts.length === 1) return (toolAttempts[0] as Hook<'toolAttempt'>)(at, tool, call);
    const holds: ToolAttemptHold[] = [];
    for (const hook of toolAttempts) {
      const held = hook(at, tool, call);
      if (held !== undefined) holds.push(held);
    }
    return holds;
  }

  /**
   * The features' checks of the tools a response asks for; a promise only when a feature needs to
   * wait for its check.
   */
  checks(
    at: FeatureContext,
    response: ModelResponse,
  ): readonly ToolCheck[] | Promise<readonly ToolCheck[]> {
    const found: (ToolCheck | undefined | Promise<ToolCheck | undefined>)[] = [];
    let waits = false;
    for (const hook of this.toolChecks) {
      const check = hook(at, response);
      if (check instanceof Promise) waits = true;
      found.push(check);
    }
    if (!waits) return found.filter(check => check !== undefined) as ToolCheck[];
    return Promise.all(found as Promise<ToolCheck | undefined>[]).then(all =>
      all.filter(check => check !== undefined),
    );
  }

  /** The model a call of `agent` goes to, through every feature that redirects models. */
  model(agent: AnyAgent, model: LanguageModel): LanguageModel {
    let chosen = model;
    for (const hook of this.#models) chosen = hook(agent, chosen);
    return chosen;
  }

  /** Whether a feature redirects models. */
  get redirectsModels(): boolean {
    return this.#models.length > 0;
  }

  /** What an answered call cost; undefined when no feature prices calls or the model has no price. */
  price(identity: LlmIdentity, response: ModelResponse): number | undefined {
    return this.#price?.(identity, response);
  }

  /** The turn pauses on `pending`: the features that asked are told. */
  pause(at: FeatureContext, pending: readonly PendingApproval[]): void {
    for (const hook of this.#pauses) hook(at, pending);
  }

  /** The step a resumed turn runs: the first feature's answer, or the paused step as it was. */
  resume(
    at: FeatureContext,
    paused: PausedStep,
    decisions: readonly ApprovalDecision[],
  ): DecidedStep {
    for (const hook of this.#resumes) {
      const decided = hook(at, paused, decisions);
      if (decided !== undefined) return decided;
    }
    return { step: paused.step, refused: [] };
  }
}
