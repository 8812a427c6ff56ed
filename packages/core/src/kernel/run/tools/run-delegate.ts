import type { AgentOutcome, AgentStart, PausedTurn } from '../turn/agent-outcome.js';
import type { AnyAgent } from '../../agent/agent.js';
import { ToolCallError } from '../../errors/tool-call-error.js';
import type { Delegation } from '../../agent/as-tool.js';
import type { ToolCallOutcome } from '../../tool/execute-tool-call.js';
import type { OpenSpan } from '../../trace/run-tracer.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { RunState } from '../frame/run-state.js';
import { startHandoffSpan } from '../handoffs/handoff-span.js';
import type { AgentRunner } from '../turn/agent-runner.js';

/**
 * Runs a delegated agent (a tool made by `asTool()`) to completion under the caller's tool span,
 * inside a `handoff_start` / `handoff_end` with `mode: 'return_to_caller'`, and turns its answer
 * into the tool's outcome. Its chunks are collected, for the caller to stream in order. A
 * delegate already on the path, or one level too deep, is refused with a tool error.
 */
export async function runDelegate(options: {
  caller: AnyAgent;
  delegation: Delegation;
  callId: string;
  /** The name the caller's LLM used for the tool. */
  toolName: string;
  args: { input: string };
  toolSpan: OpenSpan;
  path: readonly string[];
  state: RunState;
  /** Set when the delegated agent goes on from a pause: its paused turn and the decisions. */
  resumed?: AgentStart['resumed'];
  /** Runs the agent asked. */
  runAgent: AgentRunner;
}): Promise<{ outcome: ToolCallOutcome; chunks: Chunk[]; paused?: PausedTurn }> {
  const { caller, delegation, callId, toolName, args, toolSpan, path, state, resumed, runAgent } =
    options;
  const target = delegation.agent;
  const handoffSpan = startHandoffSpan(state, {
    from: caller.name,
    to: target.name,
    mode: 'return_to_caller',
    path,
    parent: toolSpan,
    start: { call_id: callId },
  });
  const { depth, nextPath, span } = handoffSpan;
  const chunks: Chunk[] = handoffSpan.chunk === undefined ? [] : [handoffSpan.chunk];
  const refuse = (type: string, message: string) => {
    handoffSpan.refuse(type, message);
    const error = new ToolCallError({ kind: 'delegate_failed', toolName, message });
    return { outcome: { ok: false as const, args, error, content: message }, chunks };
  };
  if (path.includes(target.name)) {
    return refuse(
      'handoff_cycle',
      `Agent '${target.name}' cannot be asked: it is already working on this conversation (${path.join(' → ')}). Answer without it.`,
    );
  }
  if (depth > caller.limits.maxHandoffDepth) {
    return refuse(
      'handoff_depth_exceeded',
      `Agent '${target.name}' cannot be asked: that would nest ${depth} agents deep (${nextPath.join(' → ')}); ${caller.limits.maxHandoffDepth} allowed. Answer without it.`,
    );
  }
  handoffSpan.accept();
  let outcome: AgentOutcome | undefined;
  try {
    const running = runAgent(
      target,
      resumed === undefined
        ? { input: args.input, messages: [], path: nextPath }
        : { messages: [], path: nextPath, resumed },
      span,
      state,
    );
    for (let next = await running.next(); ; next = await running.next()) {
      if (next.done === true) {
        outcome = next.value;
        break;
      }
      chunks.push(next.value);
    }
  } finally {
    handoffSpan.finish(outcome);
  }
  return { ...answerOf(outcome, delegation, toolName, args), chunks };
}

/** What the calling model is given for the delegated agent's outcome, and its pause if it paused. */
function answerOf(
  outcome: AgentOutcome,
  delegation: Delegation,
  toolName: string,
  args: { input: string },
): { outcome: ToolCallOutcome; paused?: PausedTurn } {
  const target = delegation.agent;
  if (outcome.paused !== undefined) {
    // The delegated agent waits for a person: so does the run that called it.
    const message = `Agent '${target.name}' waits for a person's approval of ${outcome.paused.pending.map(approval => `'${approval.toolName}'`).join(', ')}; the call goes on when the run resumes.`;
    const error = new ToolCallError({ kind: 'awaiting_approval', toolName, message });
    return { outcome: { ok: false, args, error, content: message }, paused: outcome.paused };
  }
  if (outcome.stopReason !== 'completed') {
    const message = `Agent '${target.name}' did not answer: it stopped with ${outcome.stopReason}${outcome.detail === undefined ? '' : ` (${outcome.detail})`}.`;
    const error = new ToolCallError({ kind: 'delegate_failed', toolName, message });
    return { outcome: { ok: false, args, error, content: message } };
  }
  const answer = outcome.decoded === undefined ? outcome.output : outcome.decoded.value;
  const result =
    delegation.onReturn === undefined
      ? answer
      : delegation.onReturn({
          agent: outcome.agentName,
          stopReason: outcome.stopReason,
          output: answer,
        });
  const content = typeof result === 'string' ? result : (JSON.stringify(result) ?? 'null');
  return { outcome: { ok: true, args, result, content } };
}
