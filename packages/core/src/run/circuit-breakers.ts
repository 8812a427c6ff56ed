import type { AnyAgent } from '../agent/agent.js';
import { CircuitBreakers, type CircuitBreaker } from '../resilience/circuit-breaker.js';
import type { RunState } from './run-state.js';

/**
 * The circuit breaker of `target` (a model or tool) for `agent`: from the agent's own breakers,
 * or from this run's breakers of the agent when its scope is `run`. None when breakers are off.
 */
export function breakerFor(
  agent: AnyAgent,
  target: object,
  state: Pick<RunState, 'runBreakers'>,
): CircuitBreaker | undefined {
  const settings = agent.resilience.circuitBreaker;
  if (settings === undefined) return undefined;
  if (settings.scope === 'agent') return settings.breakers.for(target);
  let breakers = state.runBreakers.get(agent);
  if (breakers === undefined) {
    breakers = new CircuitBreakers(settings.breakers.options);
    state.runBreakers.set(agent, breakers);
  }
  return breakers.for(target);
}
