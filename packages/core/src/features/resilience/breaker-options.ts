import { addAgentOptionCheck } from '../../kernel/agent/agent-option-checks.js';
import type { AgentFeatureOptions, AnyAgent } from '../../kernel/agent/agent-types.js';
import { nonNegative, positiveInteger } from '../../kernel/agent/option-numbers.js';
import { ConfigurationError } from '../../kernel/errors/configuration-error.js';
import { defaults } from '../../kernel/util/defaults.js';

/** Options of the circuit breakers of the agent's model and tools. */
export interface CircuitBreakerSettings {
  /** @defaultValue 5 */
  failureThreshold?: number;
  /** @defaultValue 30000 */
  cooldownMs?: number;
  /**
   * Who shares the breakers: every run of this agent (`agent`: a circuit is about the service,
   * so the runs of one agent learn together), or each run alone (`run`). Never other agents.
   * @defaultValue 'agent'
   */
  scope?: 'agent' | 'run';
}

declare module '../../kernel/agent/agent-types.js' {
  interface AgentFeatureOptions {
    /**
     * Circuit breakers for the model and each tool, shared by all runs in the process; `false`
     * turns them off. @defaultValue on, with the defaults of {@link CircuitBreakerSettings}
     */
    circuitBreaker?: CircuitBreakerSettings | false;
  }
}

/** An agent's circuit-breaker settings, defaults filled in. */
export interface ResolvedBreakerSettings {
  readonly failureThreshold: number;
  readonly cooldownMs: number;
  /** Who shares the breakers: every run of the agent, or each run its own. */
  readonly scope: 'agent' | 'run';
}

/** The agent's settings, checked, defaults filled in; undefined when its breakers are off. */
function resolve(name: string, options: AgentFeatureOptions): ResolvedBreakerSettings | undefined {
  const settings = options.circuitBreaker ?? {};
  if (settings === false) return undefined;
  const group = 'circuitBreaker';
  const failureThreshold = settings.failureThreshold ?? defaults.circuitFailureThreshold;
  const cooldownMs = settings.cooldownMs ?? defaults.circuitCooldownMs;
  const scope = settings.scope ?? 'agent';
  if (scope !== 'agent' && scope !== 'run') {
    throw new ConfigurationError({
      option: 'circuitBreaker.scope',
      message: `Invalid circuitBreaker.scope for agent '${name}': expected 'agent' or 'run' (actual: ${JSON.stringify(scope)}).`,
    });
  }
  return Object.freeze({
    failureThreshold: positiveInteger(name, 'failureThreshold', failureThreshold, group),
    cooldownMs: nonNegative(name, 'cooldownMs', cooldownMs, group),
    scope,
  });
}

addAgentOptionCheck((name, options) => void resolve(name, options));

const resolved = new WeakMap<AnyAgent, ResolvedBreakerSettings | null>();

/** The agent's circuit-breaker settings (checked when it was defined); undefined when off. */
export function breakerSettingsOf(agent: AnyAgent): ResolvedBreakerSettings | undefined {
  let found = resolved.get(agent);
  if (found === undefined) {
    found = resolve(agent.name, agent.featureOptions) ?? null;
    resolved.set(agent, found);
  }
  return found ?? undefined;
}
