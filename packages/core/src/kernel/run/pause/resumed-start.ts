import type { AnyAgent } from '../../agent/agent.js';
import type { ApprovalDecision } from '../../protocol/approval.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import type { AgentStart, PausedTurn } from '../turn/agent-outcome.js';

/**
 * The agent a paused turn goes on in, found along the turn's path from `entry` (the run's entry
 * agent, or a workflow step's agent), and how it starts: from the paused turn, with the decisions.
 * Throws a `ConfigurationError` when the agent graph no longer has that path.
 */
export function resumedAgentStart(
  entry: AnyAgent,
  turn: PausedTurn,
  decisions: readonly ApprovalDecision[],
): [AnyAgent, AgentStart] {
  const { path } = turn;
  if (path[0] !== entry.name)
    throw new ConfigurationError({
      option: 'agent',
      message: `The state paused in a turn that began with agent '${String(path[0])}', not '${entry.name}': resume it with the same agents.`,
    });
  let current = entry;
  for (const name of path.slice(1)) {
    const next = current.handoffs().find(handoff => handoff.agent.name === name)?.agent;
    if (next === undefined) {
      throw new ConfigurationError({
        option: 'agent',
        message: `The run state paused in agent '${turn.agent}' (path ${path.join(' → ')}), but agent '${current.name}' has no handoff to '${name}' any more: resume it with the agent graph that paused it.`,
      });
    }
    current = next;
  }
  return [current, { messages: [], path, resumed: { turn, decisions } }];
}
