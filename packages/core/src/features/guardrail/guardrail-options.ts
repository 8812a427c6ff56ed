import { addAgentOptionCheck } from '../../kernel/agent/agent-option-checks.js';
import type { AgentFeatureOptions, AnyAgent } from '../../kernel/agent/agent-types.js';
import type { Guardrail } from '../../kernel/agent/guardrail.js';
import { ConfigurationError } from '../../kernel/errors/configuration-error.js';

/** The guardrails of an agent, by stage. */
export interface AgentGuardrails {
  readonly input?: readonly Guardrail[];
  readonly output?: readonly Guardrail[];
  readonly tool?: readonly Guardrail[];
}

declare module '../../kernel/agent/agent-types.js' {
  interface AgentFeatureOptions {
    /** Checks on the input, the final output and each tool call. @defaultValue none */
    guardrails?: AgentGuardrails;
  }
}

/** An agent's guardrails by stage, every stage given (empty when it has none). */
export interface StageGuardrails {
  readonly input: readonly Guardrail[];
  readonly output: readonly Guardrail[];
  readonly tool: readonly Guardrail[];
}

const stages = ['input', 'output', 'tool'] as const;

/** Checks an agent's `guardrails` option when it is defined: each must be `{ name, check }`. */
function checkGuardrails(agentName: string, options: AgentFeatureOptions): void {
  for (const stage of stages) {
    for (const guardrail of options.guardrails?.[stage] ?? []) {
      if (typeof guardrail?.check !== 'function' || typeof guardrail.name !== 'string') {
        throw new ConfigurationError({
          option: `guardrails.${stage}`,
          message: `Invalid guardrail in guardrails.${stage} of agent '${agentName}': expected { name, check(input) }, such as maxLengthGuardrail({ maxTokens: 4096 }).`,
        });
      }
    }
  }
}

addAgentOptionCheck(checkGuardrails);

const none: readonly Guardrail[] = [];
const resolved = new WeakMap<AnyAgent, StageGuardrails>();

/** The agent's guardrails, by stage (checked when the agent was defined). */
export function guardrailsOf(agent: AnyAgent): StageGuardrails {
  let found = resolved.get(agent);
  if (found === undefined) {
    const given = agent.featureOptions.guardrails;
    found = {
      input: given?.input ?? none,
      output: given?.output ?? none,
      tool: given?.tool ?? none,
    };
    resolved.set(agent, found);
  }
  return found;
}
