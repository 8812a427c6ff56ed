import type { AnyAgent } from '../../agent/agent.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import type { ToolCallError } from '../../errors/tool-call-error.js';
import type { LanguageModel, ModelResponse } from '../../model/language-model.js';
import type { Redaction } from '../../trace/redaction.js';
import type { LlmIdentity } from '../turn/llm-event-fields.js';
import type {
  AnswerAt,
  DecidedStep,
  FeatureHooks,
  FinalAnswerAt,
  ModelAttemptHold,
  ModelCallAt,
  PauseAt,
  ResumeAt,
  ToolAttemptAt,
  ToolAttemptHold,
  ToolRoundAt,
  TurnStartAt,
} from './feature-hooks.js';
import type { Stop, ToolCheck } from '../turn/next-step.js';
import { nativeToolCalling, type ToolCallingMode } from '../turn/tool-calling.js';
import { Transforms } from './transforms.js';

/** The hooks one feature gives a run, with the feature's name. */
export interface RunFeature {
  readonly name: string;
  readonly hooks: FeatureHooks;
}

type HookName = Exclude<keyof FeatureHooks, 'redaction' | 'toolCalling' | 'appliesTo'>;
type Hook<Name extends HookName> = NonNullable<FeatureHooks[Name]>;

/** The hooks of one kind, in the order the features were given, bound to their feature. */
function hooks<Name extends HookName>(features: readonly RunFeature[], name: Name): Hook<Name>[] {
  const found: Hook<Name>[] = [];
  for (const { hooks: feature } of features) {
    const hook = feature[name];
    if (hook === undefined) continue;
    // Called on its hooks: a method may keep its state on `this`.
    found.push(hook.bind(feature) as Hook<Name>);
  }
  return found;
}

/** The first stop the hooks give, asked in order (each waited for before the next). */
async function firstStop<At>(
  hooks: readonly ((at: At) => Stop | undefined | Promise<Stop | undefined>)[],
  at: At,
): Promise<Stop | undefined> {
  for (const hook of hooks) {
    const stop = await hook(at);
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
  readonly #features: readonly RunFeature[];
  readonly #byAgent = new Map<AnyAgent, Hooks>();
  /** The hooks of each set of features that agents take part in, by the set's bits. */
  readonly #bySet = new Map<number, Hooks>();
  readonly #modes = new Map<string, ToolCallingMode>([['native', nativeToolCalling]]);

  constructor(features: readonly RunFeature[]) {
    // A set of features is a bit each in a number (forAgent).
    if (features.length > 30)
      throw new ConfigurationError({
        option: 'features',
        message: `A run takes at most 30 features; this one has ${features.length}. Combine some into one feature.`,
      });
    this.#features = features;
    this.redaction = features.find(({ hooks }) => hooks.redaction !== undefined)?.hooks.redaction;
    for (const { hooks } of features) {
      if (hooks.toolCalling === undefined) continue;
      for (const [name, mode] of Object.entries(hooks.toolCalling)) this.#modes.set(name, mode);
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
      const taking: RunFeature[] = [];
      const features = this.#features;
      for (let index = 0; index < features.length; index++) {
        const feature = features[index] as RunFeature;
        if (feature.hooks.appliesTo?.(agent) === false) continue;
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
  /** The features' transforms of requests, answers and tool results, each with its feature. */
  readonly transforms: Transforms;
  readonly #models: readonly Hook<'model'>[];
  readonly #price: Hook<'priceCall'> | undefined;
  readonly #pauses: readonly Hook<'pause'>[];
  readonly #resumes: readonly Hook<'resume'>[];

  constructor(features: readonly RunFeature[]) {
    this.beforeTurns = hooks(features, 'beforeTurn');
    this.beforeModelCalls = hooks(features, 'beforeModelCall');
    this.afterModelCalls = hooks(features, 'afterModelCall');
    this.beforeAnswers = hooks(features, 'beforeAnswer');
    this.beforeToolRounds = hooks(features, 'beforeToolRound');
    this.modelAttempts = hooks(features, 'modelAttempt');
    this.toolChecks = hooks(features, 'toolCheck');
    this.toolAttempts = hooks(features, 'toolAttempt');
    this.transforms = new Transforms(features);
    this.#models = hooks(features, 'model');
    this.#price = hooks(features, 'priceCall')[0];
    this.#pauses = hooks(features, 'pause');
    this.#resumes = hooks(features, 'resume');
  }

  /** Before a turn's first model call: the first stop a feature gives. */
  beforeTurn(at: TurnStartAt): Promise<Stop | undefined> {
    return firstStop(this.beforeTurns, at);
  }

  /** Before a model call: the first stop a feature gives. */
  beforeModelCall(at: ModelCallAt): Promise<Stop | undefined> {
    return firstStop(this.beforeModelCalls, at);
  }

  /** After a model answered a turn's step: every feature is told. */
  afterModelCall(at: AnswerAt): void {
    for (const hook of this.afterModelCalls) hook(at);
  }

  /** On the answer a turn would end with: the first stop a feature gives. */
  beforeAnswer(at: FinalAnswerAt): Promise<Stop | undefined> {
    return firstStop(this.beforeAnswers, at);
  }

  /** A round of tool calls before they run: the calls the features refuse, by call id. */
  async beforeToolRound(at: ToolRoundAt): Promise<ReadonlyMap<string, ToolCallError>> {
    const refused = new Map<string, ToolCallError>();
    for (const hook of this.beforeToolRounds) {
      const found = await hook(at);
      if (found !== undefined)
        for (const [callId, error] of found) if (!refused.has(callId)) refused.set(callId, error);
    }
    return refused;
  }

  /**
   * What the features hold over a model attempt: one hold, or several; a promise only when a
   * feature waits (a rate limit), and then the features after it are asked once it has waited.
   */
  holdModelAttempt(at: ModelCallAt): Holds<ModelAttemptHold> | Promise<Holds<ModelAttemptHold>> {
    const { modelAttempts } = this;
    if (modelAttempts.length === 1) return (modelAttempts[0] as Hook<'modelAttempt'>)(at);
    const holds: ModelAttemptHold[] = [];
    for (let index = 0; index < modelAttempts.length; index++) {
      const held = (modelAttempts[index] as Hook<'modelAttempt'>)(at);
      if (held instanceof Promise) return this.#waitThenHold(at, held, holds, index + 1);
      if (held !== undefined) holds.push(held);
    }
    return holds;
  }

  async #waitThenHold(
    at: ModelCallAt,
    waiting: Promise<ModelAttemptHold | undefined>,
    holds: ModelAttemptHold[],
    next: number,
  ): Promise<ModelAttemptHold[]> {
    const held = await waiting;
    if (held !== undefined) holds.push(held);
    for (const hook of this.modelAttempts.slice(next)) {
      const more = await hook(at);
      if (more !== undefined) holds.push(more);
    }
    return holds;
  }

  /** What the features hold over a tool attempt: one hold, or several. */
  holdToolAttempt(at: ToolAttemptAt): Holds<ToolAttemptHold> {
    const { toolAttempts } = this;
    if (toolAttempts.length === 1) return (toolAttempts[0] as Hook<'toolAttempt'>)(at);
    const holds: ToolAttemptHold[] = [];
    for (const hook of toolAttempts) {
      const held = hook(at);
      if (held !== undefined) holds.push(held);
    }
    return holds;
  }

  /**
   * The features' checks of the tools a response asks for; a promise only when a feature needs to
   * wait for its check.
   */
  checks(at: AnswerAt): readonly ToolCheck[] | Promise<readonly ToolCheck[]> {
    const found: (ToolCheck | undefined | Promise<ToolCheck | undefined>)[] = [];
    let waits = false;
    for (const hook of this.toolChecks) {
      const check = hook(at);
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
    for (const hook of this.#models) chosen = hook({ agent, model: chosen });
    return chosen;
  }

  /** Whether a feature redirects models. */
  get redirectsModels(): boolean {
    return this.#models.length > 0;
  }

  /** What an answered call cost; undefined when no feature prices calls or the model has no price. */
  price(identity: LlmIdentity, response: ModelResponse): number | undefined {
    return this.#price?.({ identity, response });
  }

  /** The turn pauses: the features that asked are told. */
  pause(at: PauseAt): void {
    for (const hook of this.#pauses) hook(at);
  }

  /** The step a resumed turn runs: the first feature's answer, or the paused step as it was. */
  resume(at: ResumeAt): DecidedStep {
    for (const hook of this.#resumes) {
      const decided = hook(at);
      if (decided !== undefined) return decided;
    }
    return { step: at.paused.step, refused: [] };
  }
}
