import type { AgentRunner } from '../turn/agent-runner.js';
import type { AnyAgent } from '../../agent/agent.js';
import type { Message, ToolCallRequest } from '../../protocol/message.js';
import type { ParsedToolArguments, ToolCallOutcome } from '../../tool/execute-tool-call.js';
import type { OpenSpan } from '../../trace/run-tracer.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { ToolCallRecord } from '../../protocol/records.js';
import type { AgentStart, FinishedCall, PausedTurn } from '../turn/agent-outcome.js';
import type { Conversation } from '../turn/conversation.js';
import type { RunState } from '../frame/run-state.js';
import type { Hooks } from '../seam/seam.js';
import type { TurnContext } from '../seam/feature-context.js';

/** A call of the tool phase: its request, parsed arguments, start and attempt. */
export interface PendingCall {
  readonly call: ToolCallRequest;
  /** The MCP server of the tool, for the trace. */
  readonly server: { readonly name: string; readonly transport: string } | undefined;
  readonly parsed: ParsedToolArguments;
  readonly args: unknown;
  startMs: number;
  /** In ReAct mode: the model's Thought before the call. */
  readonly thought: string | undefined;
  attempt: number;
}

/** A call that ended: its outcome, when, and what a delegate streamed or paused with. */
export interface SettledCall {
  readonly pending: PendingCall;
  readonly outcome: ToolCallOutcome;
  readonly endMs: number;
  /** Chunks of a delegated agent, streamed before the call's `tool_response`. */
  readonly chunks: readonly Chunk[];
  /** Set when the call is a delegated agent that paused for approval. */
  readonly paused?: PausedTurn;
}

/** What one attempt of a call gave. */
export interface Attempt {
  readonly outcome: ToolCallOutcome;
  readonly chunks: readonly Chunk[];
  readonly paused?: PausedTurn | undefined;
}

/** A paused step as a resumed run goes on with it: finished calls handed back, a delegate resumed. */
export interface ResumedPhase {
  readonly finished: readonly FinishedCall[];
  readonly delegate: {
    readonly callId: string;
    readonly resumed: NonNullable<AgentStart['resumed']>;
  };
}

/** What the tool phase gave: the records, or the pause of a delegated agent. */
export interface ToolPhaseResult {
  readonly records: ToolCallRecord[];
  readonly paused?: NonNullable<PausedTurn['delegate']>;
}

/** What the tool phase of one agent turn works with. */
export interface ToolPhase {
  readonly agent: AnyAgent;
  readonly conversation: Conversation;
  /** The message that gives the LLM a call's result: a tool message, or a ReAct observation. */
  readonly resultMessage: (call: ToolCallRequest, content: string, isError: boolean) => Message;
  /** In ReAct mode: the Thought before the call, recorded on its `tool_start`. */
  readonly thought?: string | undefined;
  readonly agentSpan: OpenSpan;
  readonly state: RunState;
  /** The hooks of the run's features that take part in the agent's turns. */
  readonly hooks: Hooks;
  /** What those hooks see of the agent's turn. */
  readonly at: TurnContext;
  /** Tools declared unavailable so far; failing tools are added. */
  readonly unavailableTools: Set<string>;
  /** The handoff path, for agents used as tools. */
  readonly path: readonly string[];
  /** Set when the step goes on from a pause inside a delegated agent. */
  readonly resumed?: ResumedPhase | undefined;
  /** Runs an agent asked as a tool. */
  readonly runAgent: AgentRunner;
}
