import type { runAgent } from './run-agent.js';

/**
 * Runs an agent inside the run: `runAgent`, handed to the parts of a turn that start another
 * agent (a handoff, an agent asked as a tool), so that they do not import it back.
 */
export type AgentRunner = typeof runAgent;
