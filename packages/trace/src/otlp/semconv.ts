import type { AttributeValue } from '@opentelemetry/api';
/**
 * The OpenTelemetry GenAI semantic-convention attributes agent-trace emits (latest experimental
 * shape; `gen_ai.transfer.*` is newer than the npm constants, so all live here, in one place).
 */
export const semconv = Object.freeze({
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  agentName: 'gen_ai.agent.name',
  workflowName: 'gen_ai.workflow.name',
  conversationId: 'gen_ai.conversation.id',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  toolDefinitions: 'gen_ai.tool.definitions',
  transferMode: 'gen_ai.transfer.mode',
  transferTargetName: 'gen_ai.transfer.target.name',
  errorType: 'error.type',
  /** The MCP conventions: the JSON-RPC method of a tool call, and the transport as a network one. */
  mcpMethodName: 'mcp.method.name',
  networkTransport: 'network.transport',
});

/** agent-trace's own attributes. */
export const ownAttributes = Object.freeze({
  runId: 'agent_trace.run_id',
  seq: 'agent_trace.seq',
  stopReason: 'agent_trace.stop_reason',
  step: 'agent_trace.step',
  attempt: 'agent_trace.attempt',
  handoffDepth: 'agent_trace.handoff.depth',
  truncated: 'agent_trace.truncated',
  mcpServer: 'agent_trace.mcp.server',
  /** What a model call, an agent or a run cost, in US dollars (priced calls only). */
  costUsd: 'agent_trace.cost_usd',
  /** Set on a model call answered from a cache (a cassette): it cost nothing. */
  cacheHit: 'agent_trace.cache_hit',
  /** Model calls of an agent or a run whose model has no price: their cost is unknown. */
  unpricedCalls: 'agent_trace.cost.unpriced_calls',
  /** In ReAct mode: the Thought before a tool call (content). */
  reactThought: 'agent_trace.react.thought',
  /** In ReAct mode: how the agent's model is asked for tools. */
  toolCalling: 'agent_trace.tool_calling',
  /** A workflow's status: completed, failed, interrupted or aborted. */
  workflowStatus: 'agent_trace.workflow.status',
  /** The plan a planned workflow came from (1 for the first plan). */
  planRevision: 'agent_trace.plan.revision',
  /** A workflow step: its name, how it ended, and how many times it ran. */
  workflowStep: 'agent_trace.workflow.step',
  workflowStepStatus: 'agent_trace.workflow.step.status',
  workflowStepAttempts: 'agent_trace.workflow.step.attempts',
  /** A `for_each` step: how many items ran at once. */
  workflowStepItems: 'agent_trace.workflow.step.items',
});

/** An attribute name agent-trace puts on spans. */
export type AttributeName =
  (typeof semconv)[keyof typeof semconv] | (typeof ownAttributes)[keyof typeof ownAttributes];

/** A span's attributes, keyed by the names above only (a misspelt name does not compile). */
export type SpanAttributes = { [Name in AttributeName]?: AttributeValue };

/** `gen_ai.provider.name` for agent-trace's provider ids (`openai.chat` → `openai`). */
export function providerName(provider: string): string {
  return provider.split('.')[0] ?? provider;
}

/** Finish reasons in the conventions' enum (`tool_calls` → `tool_call`). */
export function finishReason(reason: string): string {
  return reason === 'tool_calls' ? 'tool_call' : reason;
}
