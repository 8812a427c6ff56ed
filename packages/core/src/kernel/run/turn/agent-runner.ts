import type { AnyAgent } from '../../agent/agent.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { OpenSpan } from '../../trace/run-tracer.js';
import type { AgentOutcome, AgentStart } from './agent-outcome.js';
import type { RunState } from '../frame/run-state.js';

/**
 * Runs an agent inside the run (`runAgent`): its chunks as it goes, its outcome at the end. Handed
 * to the parts of a turn that start another agent (a handoff, an agent asked as a tool), so that
 * they do not import it back.
 */
export type AgentRunner = (
  agent: AnyAgent,
  start: AgentStart,
  parent: OpenSpan,
  state: RunState,
) => AsyncGenerator<Chunk, AgentOutcome, undefined>;
