import { agent, type Agent } from '../../kernel/agent/agent.js';
import type { LanguageModel } from '../../kernel/model/language-model.js';
import type { RouteRule } from '../../kernel/agent/router.js';
import type { RouterOptions } from './rule-router.js';

/** Options of {@link modelRouter}. */
export interface ModelRouterOptions extends RouterOptions {
  /** A small, fast model that answers `{ "agent": "<name>" }`. */
  model: LanguageModel;
  /** Rules used when the model's answer is not JSON or names an unknown agent. @defaultValue none */
  rules?: readonly RouteRule[];
}

/**
 * An entry agent that asks a model which agent should take the input: the model
 * sees the agents' names and descriptions and answers `{ "agent": "<name>" }`. Bad JSON or an
 * unknown agent falls back to the rules, then to `fallback`. The chosen agent takes the
 * conversation over; the trace records how it was chosen.
 */
export function modelRouter(options: ModelRouterOptions): Agent {
  const name = options.name ?? 'router';
  const catalogue = options.agents
    .map(
      candidate =>
        `- ${candidate.name}${candidate.description === '' ? '' : `: ${candidate.description}`}`,
    )
    .join('\n');
  return agent({
    name,
    instructions: `You route user requests to the agent best suited to answer them. The agents:\n${catalogue}\nReply with JSON only, in the form {"agent": "<name>"}.`,
    model: options.model,
    handoffs: options.agents,
    router: { kind: 'llm', rules: options.rules ?? [], fallback: options.fallback },
  });
}
