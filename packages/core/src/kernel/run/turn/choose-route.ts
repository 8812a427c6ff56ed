import type { CostTally } from '../../protocol/cost-tally.js';
import type { AnyAgent } from '../../agent/agent.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { RunState } from '../frame/run-state.js';
import { callModel } from './call-model.js';
import type { Conversation } from './conversation.js';
import type { OpenSpan } from '../../trace/run-tracer.js';
import { matchRule, type RouteChoice, type RouterSpec } from '../../agent/router.js';
import type { TurnContext } from '../seam/feature-context.js';
import type { Hooks } from '../seam/seam.js';

/** Why a router found no agent. */
export interface NoRoute {
  readonly problem: string;
}

/**
 * Picks the agent for `input`. An LLM router calls its model once (traced like any model call)
 * and reads `{ "agent": … }`; a bad answer falls back to the rules, then to the fallback agent.
 */
export async function* chooseRoute(options: {
  router: AnyAgent;
  spec: RouterSpec;
  input: string;
  conversation: Conversation;
  requestHash: string;
  agentSpan: OpenSpan;
  /** The router's cost tally. */
  cost: CostTally;
  state: RunState;
  /** The router's features, and what they see of its turn. */
  hooks: Hooks;
  at: TurnContext;
}): AsyncGenerator<Chunk, RouteChoice | NoRoute, undefined> {
  const { router, spec, input } = options;
  const known = router.handoffs().map(handoff => handoff.agent.name);
  let fellBack = '';
  if (spec.kind === 'llm') {
    const response = yield* callModel(
      {
        agent: router,
        step: 1,
        conversation: options.conversation,
        messages: options.conversation.messages,
        instructions: router.instructions,
        tools: [],
        cost: options.cost,
        requestHash: options.requestHash,
        agentSpan: options.agentSpan,
        hooks: options.hooks,
        at: options.at,
      },
      options.state,
    );
    const named = readAgentName(response.text);
    if (named.ok && known.includes(named.agent)) {
      return { agentName: named.agent, by: 'llm', reason: `the model chose '${named.agent}'` };
    }
    fellBack = named.ok
      ? `the model named '${named.agent}', which is not one of ${known.join(', ')}; `
      : `the model's answer was not {"agent": …} JSON (${named.problem}); `;
  }
  const rule = matchRule(spec.rules, input);
  if (rule !== undefined && known.includes(rule[1])) {
    return { agentName: rule[1], by: 'rule', reason: `${fellBack}rule ${String(rule[0])} matched` };
  }
  if (spec.fallback !== undefined && known.includes(spec.fallback)) {
    return { agentName: spec.fallback, by: 'fallback', reason: `${fellBack}no rule matched` };
  }
  return {
    problem: `router '${router.name}' found no agent for the input: ${fellBack}no rule matched and there is no fallback agent. Add a rule or a fallback.`,
  };
}

function readAgentName(text: string): { ok: true; agent: string } | { ok: false; problem: string } {
  try {
    const value = JSON.parse(
      text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1'),
    ) as unknown;
    const agent = (value as { agent?: unknown } | null)?.agent;
    if (typeof agent === 'string') return { ok: true, agent };
    return { ok: false, problem: 'no "agent" string in it' };
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
}
