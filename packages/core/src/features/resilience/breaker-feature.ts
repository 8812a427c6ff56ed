import type { AnyAgent } from '../../kernel/agent/agent.js';
import { ModelCallError } from '../../kernel/errors/model-call-error.js';
import { ToolCallError } from '../../kernel/errors/tool-call-error.js';
import type { ToolCallOutcome } from '../../kernel/tool/execute-tool-call.js';
import type { LanguageModel, ModelResponse } from '../../kernel/model/language-model.js';
import type { AnyTool } from '../../kernel/tool/tool.js';
import type {
  Feature,
  FeatureContext,
  KeptState,
  ModelAttemptHold,
  ToolAttemptHold,
} from '../../kernel/run/seam/feature.js';
import { breakerSettingsOf } from './breaker-options.js';
import { closedBreaker, CircuitBreakers, type CircuitBreaker } from './circuit-breaker.js';

/** The breakers of agents whose breakers every run shares (scope `agent`), by agent. */
const agentBreakers = new WeakMap<AnyAgent, CircuitBreakers>();

/**
 * Circuit breakers as a feature of the run: a model or tool that failed too often in a row is
 * not called until its breaker lets a call through again. An agent's breakers are shared by all
 * its runs in the process (kept here, by agent); with scope `run`, each run keeps its own. A
 * shared breaker is kept state: each run reads it through `setup.kept`, so the recording keeps
 * what other runs left it at, and a rerun keeps its breakers to itself, as the recording read them.
 */
export const breakerFeature: Feature = {
  name: 'circuit-breakers',
  version: 2,
  forRun({ kept }) {
    const runBreakers = new WeakMap<AnyAgent, CircuitBreakers>();
    // A rerun keeps every breaker to itself: what other runs did comes from the recording.
    const agentScoped = kept.replaying ? runBreakers : agentBreakers;
    // Only breakers every run of the agent shares outlive the run.
    const keptOf = (scoped: ScopedBreaker) => (scoped.scope === 'agent' ? kept : undefined);
    const modelBreaker = lastBreaker<LanguageModel>(runBreakers, agentScoped, modelName);
    const toolBreaker = lastBreaker<AnyTool>(runBreakers, agentScoped, tool => `tool ${tool.name}`);
    return {
      appliesTo: agent => breakerSettingsOf(agent) !== undefined,
      modelAttempt: at => {
        const scoped = modelBreaker(at.agent, at.model);
        if (scoped === undefined) return undefined;
        const key = `${at.agent.name} ${modelName(at.model)}`;
        return new ModelBreakerHold(keptOf(scoped), scoped.breaker, at.model.modelId, at, key);
      },
      toolAttempt: at => {
        const scoped = toolBreaker(at.agent, at.tool);
        if (scoped === undefined) return undefined;
        const key = `${at.agent.name} tool ${at.tool.name}`;
        return new ToolBreakerHold(keptOf(scoped), scoped.breaker, at.tool.name, at, key);
      },
    };
  },
};

/** A breaker, and who shares it: every run of its agent, or this run alone. */
interface ScopedBreaker {
  readonly breaker: CircuitBreaker;
  readonly scope: 'agent' | 'run';
}

/**
 * The breaker of a target for an agent; the last one is kept, since a turn asks for the same
 * model and tool step after step.
 */
function lastBreaker<Target extends object>(
  runBreakers: WeakMap<AnyAgent, CircuitBreakers>,
  agentScoped: WeakMap<AnyAgent, CircuitBreakers>,
  nameOf: (target: Target) => string,
): (agent: AnyAgent, target: Target) => ScopedBreaker | undefined {
  let last: readonly [AnyAgent, Target, ScopedBreaker | undefined] | undefined;
  return (agent, target) => {
    if (last?.[0] !== agent || last[1] !== target)
      last = [agent, target, breakerFor(agent, nameOf(target), runBreakers, agentScoped)];
    return last[2];
  };
}

/** A model's breaker's name: its provider and id, whatever wraps it. */
const modelName = (model: LanguageModel): string => `model ${model.provider}:${model.modelId}`;

/**
 * The circuit breaker of `target` (a model or tool) for `agent`: from the agent's own breakers,
 * or from this run's breakers of the agent when its scope is `run`. None when breakers are off.
 */
function breakerFor(
  agent: AnyAgent,
  target: string,
  runBreakers: WeakMap<AnyAgent, CircuitBreakers>,
  agentScoped: WeakMap<AnyAgent, CircuitBreakers>,
): ScopedBreaker | undefined {
  const settings = breakerSettingsOf(agent);
  if (settings === undefined) return undefined;
  const kept = settings.scope === 'agent' ? agentScoped : runBreakers;
  let breakers = kept.get(agent);
  if (breakers === undefined) {
    breakers = new CircuitBreakers({
      failureThreshold: settings.failureThreshold,
      cooldownMs: settings.cooldownMs,
    });
    kept.set(agent, breakers);
  }
  return { breaker: breakers.for(target), scope: settings.scope };
}

/**
 * A breaker read and changed as kept state (`kept` undefined: a breaker of this run alone): each
 * read takes the state the recording says it held, each change is what this run made of it.
 */
class KeptBreaker {
  constructor(
    private readonly kept: KeptState | undefined,
    readonly breaker: CircuitBreaker,
    readonly at: FeatureContext,
    private readonly key: string,
  ) {}

  /** The breaker as it stands now, for a decision. */
  read(): CircuitBreaker {
    const { kept, breaker } = this;
    if (kept === undefined) return breaker;
    breaker.restore(kept.read(this.at, this.key, breaker.snapshot(), closedBreaker));
    return breaker;
  }

  /** After this run changed the breaker. */
  wrote(): void {
    this.kept?.wrote(this.key, this.breaker.snapshot());
  }
}

/** An open breaker refuses the model call; an answer closes it, a failure counts against it. */
class ModelBreakerHold implements ModelAttemptHold {
  readonly #kept: KeptBreaker;
  constructor(
    kept: KeptState | undefined,
    breaker: CircuitBreaker,
    private readonly modelId: string,
    at: FeatureContext,
    key: string,
  ) {
    this.#kept = new KeptBreaker(kept, breaker, at, key);
  }

  refusal(): ModelCallError | undefined {
    const breaker = this.#kept.read();
    const { clock } = this.#kept.at;
    const allowed = breaker.allows(clock.now());
    this.#kept.wrote();
    if (allowed) return undefined;
    return new ModelCallError({
      kind: 'circuit_open',
      isRetryable: false,
      message: `Model '${this.modelId}' was not called: its circuit breaker is open after ${breaker.options.failureThreshold} consecutive failures, and lets a call through again in ${breaker.retryInMs(clock.now())} ms.`,
    });
  }

  settle(outcome: { readonly response: ModelResponse } | { readonly error: unknown }): void {
    const answered = 'response' in outcome;
    if (
      !answered &&
      !(outcome.error instanceof ModelCallError && outcome.error.kind !== 'circuit_open')
    )
      return;
    const breaker = this.#kept.read();
    if (answered) breaker.recordSuccess();
    else breaker.recordFailure(this.#kept.at.clock.now());
    this.#kept.wrote();
  }
}

/** An open breaker refuses the tool call; a result closes it, a retryable failure counts. */
class ToolBreakerHold implements ToolAttemptHold {
  readonly #kept: KeptBreaker;
  constructor(
    kept: KeptState | undefined,
    breaker: CircuitBreaker,
    private readonly toolName: string,
    at: FeatureContext,
    key: string,
  ) {
    this.#kept = new KeptBreaker(kept, breaker, at, key);
  }

  refusal(): ToolCallError | undefined {
    const breaker = this.#kept.read();
    const allowed = breaker.allows(this.#kept.at.clock.now());
    this.#kept.wrote();
    if (allowed) return undefined;
    const { toolName } = this;
    return new ToolCallError({
      kind: 'circuit_open',
      toolName,
      message: `Tool '${toolName}' was not run: its circuit breaker is open after ${breaker.options.failureThreshold} consecutive failures.`,
    });
  }

  settle(outcome: ToolCallOutcome): void {
    if (!outcome.ok && !isRetryable(outcome)) return;
    const breaker = this.#kept.read();
    if (outcome.ok) breaker.recordSuccess();
    else breaker.recordFailure(this.#kept.at.clock.now());
    this.#kept.wrote();
  }
}

/** Failures worth trying again: the tool ran and broke, or took too long. */
function isRetryable(outcome: ToolCallOutcome): boolean {
  return (
    !outcome.ok && (outcome.error.kind === 'execution_failed' || outcome.error.kind === 'timeout')
  );
}
