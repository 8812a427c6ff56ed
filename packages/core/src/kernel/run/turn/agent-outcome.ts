import type { Message } from '../../protocol/message.js';
import type { ApprovalDecision, PendingApproval } from '../../protocol/approval.js';
import type { ToolStep } from './next-step.js';
import type { LedgerSnapshot } from '../tools/tool-call-ledger.js';
import type { StopLimit, StopReason } from '../../protocol/stop-reason.js';
import type { Conversation } from './conversation.js';

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

/** A tool call of a paused step that had finished: what the model will be given for it. */
export interface FinishedCall {
  readonly callId: string;
  readonly toolName: string;
  readonly args: unknown;
  readonly result?: unknown;
  readonly error?: { readonly kind: string; readonly message: string };
  /** What the model reads. */
  readonly content: string;
  readonly attempts: number;
  readonly durationMs: number;
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
  /**
   * The calls waiting (those of a delegated agent too), and the step of tool calls they belong to
   * (`stepIndex`: its `StepResult.index`).
   */
  readonly pending: readonly PendingApproval[];
  readonly step: ToolStep;
  readonly stepIndex: number;
  /**
   * Set when the turn paused inside a delegated agent (an agent used as a tool): the call that
   * waits, that agent's own paused turn, and what the step's other calls gave, which a resumed run
   * hands back without running them again.
   */
  readonly delegate?: {
    readonly callId: string;
    readonly turn: PausedTurn;
    readonly finished: readonly FinishedCall[];
  };
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
  /** Set for the run's entry agent: `messages` are the run's `history`, which the trace holds. */
  readonly runHistory?: true;
  /** Set when the turn goes on from a pause: the paused turn and the people's decisions. */
  readonly resumed?: {
    readonly turn: PausedTurn;
    readonly decisions: readonly ApprovalDecision[];
  };
}
