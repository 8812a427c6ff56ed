import type { AnyAgent } from '../../agent/agent.js';
import type { OpenSpan } from '../../trace/run-tracer.js';
import type { AgentOutcome, AgentStart } from './agent-outcome.js';
import { runAgent } from './run-agent.js';
import type { RunState } from '../frame/run-state.js';

/**
 * Runs an agent's turn under `parent` to its end, for callers that stream nothing (a workflow's
 * agent step, a planner): its chunks are dropped, its outcome returned.
 */
export async function turnToEnd(
  agent: AnyAgent,
  start: AgentStart,
  parent: OpenSpan,
  state: RunState,
): Promise<AgentOutcome> {
  const running = runAgent(agent, start, parent, state);
  let next = await running.next();
  while (next.done !== true) next = await running.next();
  return next.value;
}
