import type { AnyAgent } from '../agent/agent.js';
import type { ApprovalDecision, PendingApproval } from '../protocol/approval.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { ToolCallError } from '../errors/tool-call-error.js';
import type { LanguageModel, ModelResponse } from '../model/language-model.js';
import type { Redaction } from '../trace/redaction.js';
import type { PausedTurn } from './agent-outcome.js';
import type { AgentTurn } from './agent-turn.js';
import type { ModelCallInput } from './call-model.js';
import type { RunState } from './run-state.js';
import type { AnyTool } from '../tool/tool.js';
import type { ToolCallRequest } from '../protocol/message.js';
import type { LlmIdentity } from './llm-event-fields.js';
import type { ModelAttemptHold, RunExtension, ToolAttemptHold, ToolRound } from './extension.js';
import type { Stop, ToolCheck, ToolStep } from './next-step.js';
import { nativeToolCalling, type ToolCallingMode } from './tool-calling.js';

type HookName = Exclude<keyof RunExtension, 'redaction' | 'toolCalling' | 'appliesTo'>;
type Hook<Name extends HookName> = NonNullable<RunExtension[Name]>;
/** What a model attempt's hooks are given: the agent, the model, the call and the run's state. */
type ModelAttempt = Parameters<Hook<'modelAttempt'>>;

/** The hooks of one kind, in the order the extensions were given, bound to their extension. */
function hooks<Name extends HookName>(
  extensions: readonly RunExtension[],
  name: Name,
): Hook<Name>[] {
  const found: Hook<Name>[] = [];
  for (const extension of extensions) {
    const hook = extension[name];
    if (hook === undefined) continue;
    // Called on its extension: a method may keep its state on `this`.
    found.push((hook as (...args: never[]) => unknown).bind(extension) as Hook<Name>);
  }
  return found;
}

/** The first stop the hooks give, asked in order (each waited for before the next). */
async function firstStop<Args extends unknown[]>(
  hooks: readonly ((...args: Args) => Promise<Stop | undefined>)[],
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
  readonly #extensions: readonly RunExtension[];
  readonly #byAgent = new Map<AnyAgent, Hooks>();
  /** The hooks of each set of extensions that agents take part in, by the set's bits. */
  readonly #bySet = new Map<number, Hooks>();
  readonly #modes = new Map<string, ToolCallingMode>([['native', nativeToolCalling]]);

  constructor(extensions: readonly RunExtension[]) {
    // A set of extensions is a bit each in a number (forAgent).
    if (extensions.length > 30) throw new Error('A run takes at most 30 features.');
    this.#extensions = extensions;
    this.redaction = extensions.find(extension => extension.redaction !== undefined)?.redaction;
    for (const extension of extensions) {
      if (extension.toolCalling === undefined) continue;
      for (const [name, mode] of Object.entries(extension.toolCalling)) this.#modes.set(name, mode);
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
      const taking: RunExtension[] = [];
      const extensions = this.#extensions;
      for (let index = 0; index < extensions.length; index++) {
        const extension = extensions[index] as RunExtension;
        if (extension.appliesTo !== undefined && !extension.appliesTo(agent)) continue;
        key |= 1 << index;
        taking.push(extension);
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
 * The hooks of some extensions, gathered by kind, so a point no feature uses costs a step nothing
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
  readonly #models: readonly Hook<'model'>[];
  readonly #price: Hook<'priceCall'> | undefined;
  readonly #pauses: readonly Hook<'pause'>[];
  readonly #resumes: readonly Hook<'resume'>[];

  constructor(extensions: readonly RunExtension[]) {
    this.beforeTurns = hooks(extensions, 'beforeTurn');
    this.beforeModelCalls = hooks(extensions, 'beforeModelCall');
    this.afterModelCalls = hooks(extensions, 'afterModelCall');
    this.beforeAnswers = hooks(extensions, 'beforeAnswer');
    this.beforeToolRounds = hooks(extensions, 'beforeToolRound');
    this.modelAttempts = hooks(extensions, 'modelAttempt');
    this.toolChecks = hooks(extensions, 'toolCheck');
    this.toolAttempts = hooks(extensions, 'toolAttempt');
    this.#models = hooks(extensions, 'model');
    this.#price = hooks(extensions, 'priceCall')[0];
    this.#pauses = hooks(extensions, 'pause');
    this.#resumes = hooks(extensions, 'resume');
  }

  /** Before a turn's first model call: the first stop a feature gives. */
  beforeTurn(turn: AgentTurn, input: string): Promise<Stop | undefined> {
    return firstStop(this.beforeTurns, turn, input);
  }

  /** Before a model call: the first stop a feature gives. */
  beforeModelCall(turn: AgentTurn, call: ModelCallInput): Promise<Stop | undefined> {
    return firstStop(this.beforeModelCalls, turn, call);
  }

  /** After a model answered a turn's step: every feature is told. */
  afterModelCall(turn: AgentTurn, response: ModelResponse): void {
    for (const hook of this.afterModelCalls) hook(turn, response);
  }

  /** On the answer a turn would end with: the first stop a feature gives. */
  beforeAnswer(turn: AgentTurn, text: string): Promise<Stop | undefined> {
    return firstStop(this.beforeAnswers, turn, text);
  }

  /** A round of tool calls before they run: the calls the features refuse, by call id. */
  async beforeToolRound(round: ToolRound): Promise<ReadonlyMap<string, ToolCallError>> {
    const refused = new Map<string, ToolCallError>();
    for (const hook of this.beforeToolRounds) {
      const found = await hook(round);
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
    agent: AnyAgent,
    model: LanguageModel,
    call: ModelCallInput,
    state: RunState,
  ): Holds<ModelAttemptHold> | Promise<Holds<ModelAttemptHold>> {
    const { modelAttempts } = this;
    if (modelAttempts.length === 1)
      return (modelAttempts[0] as Hook<'modelAttempt'>)(agent, model, call, state);
    const holds: ModelAttemptHold[] = [];
    for (let index = 0; index < modelAttempts.length; index++) {
      const held = (modelAttempts[index] as Hook<'modelAttempt'>)(agent, model, call, state);
      if (held instanceof Promise)
        return this.#waitThenHold([agent, model, call, state], held, holds, index + 1);
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
    agent: AnyAgent,
    tool: AnyTool,
    call: ToolCallRequest,
    state: RunState,
  ): Holds<ToolAttemptHold> {
    const { toolAttempts } = this;
    if (toolAttempts.length === 1)
      return (toolAttempts[0] as Hook<'toolAttempt'>)(agent, tool, call, state);
    const holds: ToolAttemptHold[] = [];
    for (const hook of toolAttempts) {
      const held = hook(agent, tool, call, state);
      if (held !== undefined) holds.push(held);
    }
    return holds;
  }

  /**
   * The features' checks of the tools a response asks for; a promise only when a feature needs to
   * wait for its check.
   */
  checks(
    turn: AgentTurn,
    response: ModelResponse,
  ): readonly ToolCheck[] | Promise<readonly ToolCheck[]> {
    const found: (ToolCheck | undefined | Promise<ToolCheck | undefined>)[] = [];
    let waits = false;
    for (const hook of this.toolChecks) {
      const check = hook(turn, response);
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
  pause(turn: AgentTurn, pending: readonly PendingApproval[]): void {
    for (const hook of this.#pauses) hook(turn, pending);
  }

  /** The step a resumed turn runs: the first feature's answer, or the paused step as it was. */
  resume(turn: AgentTurn, paused: PausedTurn, decisions: readonly ApprovalDecision[]): ToolStep {
    for (const hook of this.#resumes) {
      const step = hook(turn, paused, decisions);
      if (step !== undefined) return step;
    }
    return paused.step;
  }
}
