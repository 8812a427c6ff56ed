import type { AnyAgent } from '../agent/agent.js';
import type { Chunk } from '../protocol/chunk.js';
import type { Message } from '../protocol/message.js';
import type { ApprovalDecision, PendingApproval } from '../approval/approval.js';
import type { ToolStep } from './next-step.js';
import type { LedgerSnapshot } from './tool-call-ledger.js';
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
  /** Set when the turn paused for approvals: what a resumed run goes on from. */
  readonly paused?: PausedTurn;
}

/** An agent's turn paused for a person's approval: everything a resumed run needs of it. */
export interface PausedTurn {
  readonly agent: string;
  /** The agents the conversation passed through, this one last. */
  readonly path: readonly string[];
  readonly messages: readonly Message[];
  readonly inputIndex: number;
  readonly steps: number;
  readonly decodeRetries: number;
  readonly malformedAnswers: number;
  readonly unavailableTools: readonly string[];
  readonly finalPhase: boolean;
  readonly ledger: LedgerSnapshot;
  /** The calls waiting, and the step of tool calls they belong to. */
  readonly pending: readonly PendingApproval[];
  readonly step: ToolStep;
  /** In ReAct mode: the thought before the step's action. */
  readonly thought?: string;
}

/** How an agent's turn starts: with new input (the entry agent) or a conversation handed over. */
export interface AgentStart {
  /** The user's input; absent for the target of a handoff, which carries on the conversation. */
  readonly input?: string;
  /** The conversation so far: the run's `history`, or what the handing-off agent passes on. */
  readonly messages: readonly Message[];
  /** The agents the conversation has passed through, this one last. */
  readonly path: readonly string[];
  /** Set when the turn goes on from a pause: the paused turn and the people's decisions. */
  readonly resumed?: {
    readonly turn: PausedTurn;
    readonly decisions: readonly ApprovalDecision[];
  };
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
