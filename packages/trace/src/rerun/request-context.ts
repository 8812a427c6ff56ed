import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import { followConversation, RunHistories } from '@agent-trace/core/record';

/** A tool definition as `agent_start` records it. */
export type RecordedToolDefinition = NonNullable<
  TraceEventOf<'agent_start'>['tool_definitions']
>[number];

/** A message as `llm_start` records it. */
export type RecordedMessage = TraceEventOf<'llm_start'>['messages'][number];

/** What a model request held, rebuilt from a trace: enough to say how two requests differ. */
export interface RequestContext {
  readonly start: TraceEventOf<'llm_start'>;
  /** The instructions of the agent's turn. */
  readonly instructions: string | undefined;
  /** The agent's tool definitions, when the trace records them. */
  readonly tools: readonly RecordedToolDefinition[] | undefined;
  /** The agent's conversation up to this request. */
  messages(): readonly RecordedMessage[];
}

/**
 * The context of every model request of a run, by the `llm_start` event: the instructions it was
 * sent (its agent's, or a feature's transform of them) and the tool definitions of its agent, and the conversation rebuilt from the messages each request
 * added. Conversations are shared arrays, sliced only when a difference is explained.
 */
export function requestContexts(
  events: readonly TraceEvent[],
): Map<TraceEventOf<'llm_start'>, RequestContext> {
  const contexts = new Map<TraceEventOf<'llm_start'>, RequestContext>();
  const agentStarts = new Map<string, TraceEventOf<'agent_start'>>();
  const toolDefinitions = new Map<string, readonly RecordedToolDefinition[]>();
  const conversations = new Map<string, RecordedMessage[]>();
  const histories = new RunHistories();
  // Each run's whole history; a turn whose earlier turns are not in `events`, what it recorded.
  const runHistories = new Map<string, readonly RecordedMessage[]>();
  const sentInstructions = new Map<string, string>();
  for (const event of events) {
    if (event.event === 'run_start') {
      runHistories.set(event.run, histories.of(event) ?? event.history ?? []);
      continue;
    }
    if (event.event === 'agent_start') {
      agentStarts.set(event.span_id, event);
      if (event.tool_definitions !== undefined && !toolDefinitions.has(event.agent))
        toolDefinitions.set(event.agent, event.tool_definitions);
      continue;
    }
    if (event.event === 'transform') {
      // The instructions a feature's transform made are what the model call was sent.
      if (event.instructions !== undefined)
        sentInstructions.set(`${event.parent_span_id ?? ''} ${event.step}`, event.instructions);
      continue;
    }
    if (event.event !== 'llm_start') continue;
    const parent = event.parent_span_id ?? '';
    // A rewritten request starts a new array: earlier calls' contexts keep theirs.
    const conversation = followConversation(
      conversations.get(parent) ?? [],
      event,
      runHistories.get(event.run),
    );
    conversations.set(parent, conversation);
    const shared = conversation;
    const length = conversation.length;
    contexts.set(event, {
      start: event,
      instructions:
        sentInstructions.get(`${parent} ${event.step}`) ?? agentStarts.get(parent)?.instructions,
      tools: toolDefinitions.get(event.agent),
      messages: () => shared.slice(0, length),
    });
  }
  return contexts;
}
