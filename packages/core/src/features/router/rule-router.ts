import { agent, type Agent, type AnyAgent } from '../../kernel/agent/agent.js';
import { noModel, type RouteRule } from '../../kernel/agent/router.js';

/** Options shared by both routers. */
export interface RouterOptions {
  /** The router's name in traces. @defaultValue 'router' */
  name?: string;
  /** The agents it routes to. */
  agents: readonly AnyAgent[];
  /** The agent that takes inputs no rule matches. @defaultValue none: such an input ends the run with `error` */
  fallback?: string;
}

/**
 * An entry agent that routes each input by rules: the first rule whose pattern
 * matches picks the agent, which takes the conversation over (a `pass_control` handoff). No model
 * is called.
 *
 * @example
 * ```ts
 * const desk = ruleRouter([[/refund|charge/i, 'billing'], ['error', 'tech']], { agents: [billing, tech], fallback: 'general' });
 * await run(desk, 'I was charged twice');
 * ```
 */
export function ruleRouter(rules: readonly RouteRule[], options: RouterOptions): Agent {
  const name = options.name ?? 'router';
  return agent({
    name,
    model: noModel(name),
    handoffs: options.agents,
    router: { kind: 'rules', rules, fallback: options.fallback },
  });
}
