import type { AnyAgent } from '../../kernel/agent/agent.js';
import { ModelCallError } from '../../kernel/errors/model-call-error.js';
import { ToolCallError } from '../../kernel/errors/tool-call-error.js';
import type { ToolCallOutcome } from '../../kernel/tool/execute-tool-call.js';
import type { Clock } from '../../kernel/util/clock.js';
import type { LanguageModel, ModelResponse } from '../../kernel/model/language-model.js';
import type { AnyTool } from '../../kernel/tool/tool.js';
import type { Feature, ModelAttemptHold, ToolAttemptHold } from '../../kernel/run/seam/feature.js';
import { breakerSettingsOf } from './breaker-options.js';
import { CircuitBreakers, type CircuitBreaker } from './circuit-breaker.js';

/** The breakers of agents whose breakers every run shares (scope `agent`), by agent. */
const agentBreakers = new WeakMap<AnyAgent, CircuitBreakers>();

/**
 * Circuit breakers as a feature of the run: a model or tool that failed too often in a row is
 * not called until its breaker lets a call through again. An agent's breakers are shared by all
 * its runs in the process (kept here, by agent); with scope `run`, each run keeps its own.
 */
export const breakerFeature: Feature = {
  name: 'circuit-breakers',
  version: 2,
  forRun() {
    const runBreakers = new WeakMap<AnyAgent, CircuitBreakers>();
    const modelHold = lastHold<LanguageModel, ModelAttemptHold>(
      runBreakers,
      (breaker, model, clock) => new ModelBreakerHold(breaker, model.modelId, clock),
    );
    const toolHold = lastHold<AnyTool, ToolAttemptHold>(
      runBreakers,
      (breaker, tool, clock) => new ToolBreakerHold(breaker, tool.name, clock),
    );
    return {
      appliesTo: agent => breakerSettingsOf(agent) !== undefined,
      modelAttempt: ({ agent, model, clock }) => modelHold(agent, model, clock),
      toolAttempt: ({ agent, tool, clock }) => toolHold(agent, tool, clock),
    };
  },
};

/**
 * The hold of `target`'s breaker for `agent`, made by `make`; the last one is kept, since a turn
 * asks for the same model and tool step after step.
 */
function lastHold<Target extends object, Hold>(
  runBreakers: WeakMap<AnyAgent, CircuitBreakers>,
  make: (breaker: CircuitBreaker, target: Target, clock: Clock) => Hold,
): (agent: AnyAgent, target: Target, clock: Clock) => Hold | undefined {
  let last: readonly [AnyAgent, Target, Hold | undefined] | undefined;
  return (agent, target, clock) => {
    if (last?.[0] !== agent || last[1] !== target) {
      const breaker = breakerFor(agent, target, runBreakers);
      last = [agent, target, breaker === undefined ? undefined : make(breaker, target, clock)];
    }
    return last[2];
  };
}

/**
 * The circuit breaker of `target` (a model or tool) for `agent`: from the agent's own breakers,
 * or from this run's breakers of the agent when its scope is `run`. None when breakers are off.
 */
function breakerFor(
  agent: AnyAgent,
  target: object,
  runBreakers: WeakMap<AnyAgent, CircuitBreakers>,
): CircuitBreaker | undefined {
  const settings = breakerSettingsOf(agent);
  if (settings === undefined) return undefined;
  const kept = settings.scope === 'agent' ? agentBreakers : runBreakers;
  let breakers = kept.get(agent);
  if (breakers === undefined) {
    breakers = new CircuitBreakers({
      failureThreshold: settings.failureThreshold,
      cooldownMs: settings.cooldownMs,
    });
    kept.set(agent, breakers);
  }
  return breakers.for(target);
}

/** An open breaker refuses the model call; an answer closes it, a failure counts against it. */
class ModelBreakerHold implements ModelAttemptHold {
  constructor(
    private readonly breaker: CircuitBreaker,
    private readonly modelId: string,
    private readonly clock: Clock,
  ) {}

  refusal(): ModelCallError | undefined {
    const { breaker, clock } = this;
    if (breaker.allows(clock.now())) return undefined;
    return new ModelCallError({
      kind: 'circuit_open',
      isRetryable: false,
      message: `Model '${this.modelId}' was not called: its circuit breaker is open after ${breaker.options.failureThreshold} consecutive failures, and lets a call through again in ${breaker.retryInMs(clock.now())} ms.`,
    });
  }

  settle(outcome: { readonly response: ModelResponse } | { readonly error: unknown }): void {
    if ('response' in outcome) this.breaker.recordSuccess();
    else if (outcome.error instanceof ModelCallError && outcome.error.kind !== 'circuit_open')
      this.breaker.recordFailure(this.clock.now());
  }
}

/** An open breaker refuses the tool call; a result closes it, a retryable failure counts. */
class ToolBreakerHold implements ToolAttemptHold {
  constructor(
    private readonly breaker: CircuitBreaker,
    private readonly toolName: string,
    private readonly clock: Clock,
  ) {}

  refusal(): ToolCallError | undefined {
    const { breaker, toolName } = this;
    if (breaker.allows(this.clock.now())) return undefined;
    return new ToolCallError({
      kind: 'circuit_open',
      toolName,
      message: `Tool '${toolName}' was not run: its circuit breaker is open after ${breaker.options.failureThreshold} consecutive failures.`,
    });
  }

  settle(outcome: ToolCallOutcome): void {
    if (outcome.ok) this.breaker.recordSuccess();
    else if (isRetryable(outcome)) this.breaker.recordFailure(this.clock.now());
  }
}

/** Failures worth trying again: the tool ran and broke, or took too long. */
function isRetryable(outcome: ToolCallOutcome): boolean {
  return (
    !outcome.ok && (outcome.error.kind === 'execution_failed' || outcome.error.kind === 'timeout')
  );
}
