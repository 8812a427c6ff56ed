import type { AnyAgent } from '../../kernel/agent/agent.js';
import { ModelCallError } from '../../kernel/errors/model-call-error.js';
import { ToolCallError } from '../../kernel/errors/tool-call-error.js';
import type { ToolCallOutcome } from '../../kernel/tool/execute-tool-call.js';
import type { Clock } from '../../kernel/util/clock.js';
import type { LanguageModel, ModelResponse } from '../../kernel/model/language-model.js';
import type { AnyTool } from '../../kernel/tool/tool.js';
import type { ModelAttemptHold, RunFeature, ToolAttemptHold } from '../../kernel/run/extension.js';
import { CircuitBreakers, type CircuitBreaker } from './circuit-breaker.js';

/**
 * Circuit breakers as a feature of the run: a model or tool that failed too often in a row is
 * not called until its breaker lets a call through again. An agent's breakers are shared by all
 * its runs in the process (kept here, by agent); with scope `run`, each run keeps its own.
 */
/** The breakers of agents whose breakers every run shares (scope `agent`), by agent. */
const agentBreakers = new WeakMap<AnyAgent, CircuitBreakers>();

export const breakerFeature: RunFeature = {
  name: 'circuit-breakers',
  forRun() {
    const runBreakers = new WeakMap<AnyAgent, CircuitBreakers>();
    // The last model's and tool's hold: a turn asks for the same ones step after step.
    let model: readonly [AnyAgent, LanguageModel, ModelAttemptHold | undefined] | undefined;
    let tool: readonly [AnyAgent, AnyTool, ToolAttemptHold | undefined] | undefined;
    return {
      appliesTo: agent => agent.resilience.circuitBreaker !== undefined,
      modelAttempt(agent, target, _call, state) {
        if (model?.[0] !== agent || model[1] !== target) {
          const breaker = breakerFor(agent, target, runBreakers);
          const hold =
            breaker === undefined
              ? undefined
              : new ModelBreakerHold(breaker, target.modelId, state.clock);
          model = [agent, target, hold];
        }
        return model[2];
      },
      toolAttempt(agent, target, call, state) {
        if (tool?.[0] !== agent || tool[1] !== target) {
          const breaker = breakerFor(agent, target, runBreakers);
          const hold =
            breaker === undefined
              ? undefined
              : new ToolBreakerHold(breaker, call.toolName, state.clock);
          tool = [agent, target, hold];
        }
        return tool[2];
      },
    };
  },
};

/**
 * The circuit breaker of `target` (a model or tool) for `agent`: from the agent's own breakers,
 * or from this run's breakers of the agent when its scope is `run`. None when breakers are off.
 */
function breakerFor(
  agent: AnyAgent,
  target: object,
  runBreakers: WeakMap<AnyAgent, CircuitBreakers>,
): CircuitBreaker | undefined {
  const settings = agent.resilience.circuitBreaker;
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
