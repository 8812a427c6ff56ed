import type { AnyAgent } from '../../agent/agent.js';
import type { ResolvedHandoff } from '../../agent/handoff.js';
import type { Message, ToolCallRequest } from '../../protocol/message.js';
import type { RouteChoice } from '../../agent/router.js';
import type { Conversation } from '../turn/conversation.js';
import type { OpenSpan } from '../../trace/run-tracer.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { AgentOutcome } from '../turn/agent-outcome.js';
import type { RunState } from '../frame/run-state.js';
import { startHandoffSpan } from './handoff-span.js';
import type { AgentRunner } from '../turn/agent-runner.js';

/** How a handoff went: the target ran (its outcome), or the handoff was not made. */
export type HandoffResult =
  | { readonly kind: 'ran'; readonly outcome: AgentOutcome }
  | {
      readonly kind: 'stopped';
      readonly reason: 'handoff_depth_exceeded' | 'handoff_cycle';
      readonly detail: string;
      readonly limit?: { readonly name: string; readonly value: number };
    }
  | { readonly kind: 'refused'; readonly message: string };

/**
 * Passes control from `from` to the handoff's target with the conversation so far (through the
 * input filter). Refuses a handoff deeper than `maxHandoffDepth` or back to an agent already on
 * the path (a cycle). Every `handoff_start` gets its `handoff_end`, also when the target fails.
 */
export async function* runHandoff(options: {
  from: AnyAgent;
  handoff: ResolvedHandoff;
  /**
   * The LLM's call of the handoff tool; its result is written to `conversation` here. Absent when
   * a router hands off (no tool call was made).
   */
  call?: ToolCallRequest;
  /** How a router chose the target. */
  route?: RouteChoice;
  conversation: Conversation;
  /** The message that answers the handoff's call: a tool message, or a ReAct observation. */
  resultMessage: (call: ToolCallRequest, content: string, isError: boolean) => Message;
  path: readonly string[];
  agentSpan: OpenSpan;
  state: RunState;
  /** Runs the agent handed to. */
  runAgent: AgentRunner;
}): AsyncGenerator<Chunk, HandoffResult, undefined> {
  const { from, handoff, call, conversation, path, agentSpan, state, route, runAgent } = options;
  const answer = (content: string, isError: boolean): void => {
    if (call !== undefined) conversation.append(options.resultMessage(call, content, isError));
  };
  const target = handoff.agent;
  const handoffSpan = startHandoffSpan(state, {
    from: from.name,
    to: target.name,
    mode: 'pass_control',
    path,
    parent: agentSpan,
    start: {
      ...(call === undefined ? {} : { call_id: call.callId }),
      ...(route === undefined ? {} : { routed_by: route.by, route_reason: route.reason }),
    },
  });
  const { depth, nextPath, span } = handoffSpan;
  if (handoffSpan.chunk !== undefined) yield handoffSpan.chunk;
  if (path.includes(target.name)) {
    const detail = `'${from.name}' tried to hand off to '${target.name}', which is already on the path ${path.join(' → ')}`;
    handoffSpan.refuse('handoff_cycle', detail);
    if (from.onHandoffCycle === 'refuse') {
      const message = `Handoff to '${target.name}' refused: '${target.name}' is already handling this conversation (${path.join(' → ')}). Answer the user yourself.`;
      answer(message, true);
      return { kind: 'refused', message };
    }
    return { kind: 'stopped', reason: 'handoff_cycle', detail };
  }
  if (depth > from.limits.maxHandoffDepth) {
    const detail = `handing off from '${from.name}' to '${target.name}' would be handoff number ${depth} in a row (${nextPath.join(' → ')}); ${from.limits.maxHandoffDepth} allowed`;
    handoffSpan.refuse('handoff_depth_exceeded', detail);
    return {
      kind: 'stopped',
      reason: 'handoff_depth_exceeded',
      detail,
      limit: { name: 'maxHandoffDepth', value: from.limits.maxHandoffDepth },
    };
  }
  handoffSpan.accept();
  let outcome: AgentOutcome | undefined;
  try {
    answer(`Transferred to '${target.name}'.`, false);
    const messages =
      handoff.inputFilter === undefined
        ? conversation.messages
        : handoff.inputFilter(conversation.messages);
    outcome = yield* runAgent(target, { messages, path: nextPath }, span, state);
    return { kind: 'ran', outcome };
  } finally {
    handoffSpan.finish(outcome);
  }
}
