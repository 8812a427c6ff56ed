import type { AnyAgent } from '../agent/agent.js';
import type { Chunk } from '../protocol/chunk.js';
import type { Message } from '../protocol/message.js';
import type { StopLimit, StopReason } from '../protocol/stop-reason.js';
import type { OpenSpan } from '../trace/run-tracer.js';
import type { Conversation } from './conversation.js';
import type { RunState } from './run-state.js';

/** How one agent's turn in a run ended. */
export interface AgentOutcome {
  readonly stopReason: StopReason;
  readonly output: string;
  readonly error: Error | undefined;
  readonly conversation: Conversation;
  /** The limit that stopped the agent, when one did. */
  readonly limit: StopLimit | undefined;
  /** Why the agent stopped, for people. */
  readonly detail: string | undefined;
  /** Tools declared unavailable after failing (the run was degraded). */
  readonly degradedTools: readonly string[];
  /**
   * Set when the agent that finished has an output schema: its decoded answer (`value` is
   * undefined unless it completed). Undefined for an agent that answers in text.
   */
  readonly decoded: { readonly value: unknown } | undefined;
  /** The agent that produced the outcome: this one, or the last one it handed off to. */
  readonly agentName: string;
}

/** How an agent's turn starts: with new input (the entry agent) or a conversation handed over. */
export interface AgentStart {
  /** The user's input; absent for the target of a handoff, which carries on the conversation. */
  readonly input?: string;
  /** The conversation so far: the run's `history`, or what the handing-off agent passes on. */
  readonly messages: readonly Message[];
  /** The agents the conversation has passed through, this one last. */
  readonly path: readonly string[];
}

/**
 * Runs one agent's turn. The run puts it in its state, so that handoffs and delegates can run
 * their target without importing the loop (the modules stay acyclic).
 */
export type RunAgent = (
  agent: AnyAgent,
  start: AgentStart,
  parent: OpenSpan,
  state: RunState,
) => AsyncGenerator<Chunk, AgentOutcome, undefined>;
