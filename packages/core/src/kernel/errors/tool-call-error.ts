import { AgentTraceError } from './agent-trace-error.js';
import type { FeatureRefusal } from './feature-refusal.js';

/** Why a tool call did not produce a result. */
export type ToolCallErrorKind =
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'execution_failed'
  | 'timeout'
  | 'circuit_open'
  | 'unavailable'
  | 'guardrail_blocked'
  | 'delegate_failed'
  /**
   * The tool answered with an error of its own, for the model to read (an MCP result with
   * `isError`, a `toolError(…)` thrown by the tool): not retried.
   */
  | 'tool_error'
  /** The tool's server went away (an MCP server that exited or crashed): retried. */
  | 'server_failed'
  /** A delegated agent paused for a person's approval: the call goes on when the run resumes. */
  | 'awaiting_approval'
  /** A feature refused the call for a reason of its own (the error's `refusal`): it did not run. */
  | 'refused';

const kinds: Readonly<Record<ToolCallErrorKind, true>> = {
  unknown_tool: true,
  invalid_arguments: true,
  execution_failed: true,
  timeout: true,
  circuit_open: true,
  unavailable: true,
  guardrail_blocked: true,
  delegate_failed: true,
  tool_error: true,
  server_failed: true,
  awaiting_approval: true,
  refused: true,
};

/** Every kind of tool-call failure (a trace's `error.type` for a tool call that failed so). */
export const toolCallErrorKinds = Object.keys(kinds) as readonly ToolCallErrorKind[];

/**
 * A tool call failed. This error never ends a run: its message goes back to the LLM as the
 * tool's result (marked as an error), so the LLM can correct itself.
 */
export class ToolCallError extends AgentTraceError {
  readonly kind: ToolCallErrorKind;
  readonly toolName: string;
  /** The tools the agent has, listed when the LLM named one that does not exist. */
  readonly availableTools: readonly string[] | undefined;
  /** For kind `refused`: the feature that refused the call, and its own kind of refusal. */
  readonly refusal: FeatureRefusal | undefined;

  constructor(options: {
    message: string;
    kind: ToolCallErrorKind;
    toolName: string;
    availableTools?: readonly string[];
    refusal?: FeatureRefusal;
    cause?: unknown;
  }) {
    super({ message: options.message, cause: options.cause });
    this.name = 'ToolCallError';
    this.kind = options.kind;
    this.toolName = options.toolName;
    this.availableTools = options.availableTools;
    this.refusal = options.refusal;
  }
}
