import type { AgentFeatureOptions } from './agent-types.js';

/** A check of a feature's per-agent options: throws a `ConfigurationError` naming the option. */
export type AgentOptionCheck = (agentName: string, options: AgentFeatureOptions) => void;

const checks: AgentOptionCheck[] = [];

/**
 * Adds the check of a feature's per-agent options (the options it adds to `AgentOptions` by
 * declaration merging), run by `agent()` so a bad one fails where the agent is defined, not in
 * the middle of a run. A feature adds it once, when its module loads.
 */
export function addAgentOptionCheck(check: AgentOptionCheck): void {
  if (!checks.includes(check)) checks.push(check);
}

/** Runs every feature's check of `options`. */
export function checkFeatureOptions(agentName: string, options: AgentFeatureOptions): void {
  for (const check of checks) check(agentName, options);
}
