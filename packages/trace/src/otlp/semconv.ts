import type { AttributeValue } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_VERSION,
  ATTR_GEN_AI_AGENT_DESCRIPTION,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  ATTR_GEN_AI_EVALUATION_EXPLANATION,
  ATTR_GEN_AI_EVALUATION_NAME,
  ATTR_GEN_AI_EVALUATION_SCORE_LABEL,
  ATTR_GEN_AI_EVALUATION_SCORE_VALUE,
  EVENT_GEN_AI_EVALUATION_RESULT,
  GEN_AI_PROVIDER_NAME_VALUE_AWS_BEDROCK,
  GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_INFERENCE,
  GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_OPENAI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEN_AI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_VERTEX_AI,
  GEN_AI_PROVIDER_NAME_VALUE_IBM_WATSONX_AI,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  METRIC_GEN_AI_CLIENT_OPERATION_TIME_PER_OUTPUT_CHUNK,
  METRIC_GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK,
  ATTR_GEN_AI_AGENT_ID,
  ATTR_GEN_AI_OUTPUT_TYPE,
  ATTR_GEN_AI_REQUEST_FREQUENCY_PENALTY,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_PRESENCE_PENALTY,
  ATTR_GEN_AI_REQUEST_SEED,
  ATTR_GEN_AI_REQUEST_STOP_SEQUENCES,
  ATTR_GEN_AI_REQUEST_TEMPERATURE,
  ATTR_GEN_AI_REQUEST_TOP_K,
  ATTR_GEN_AI_REQUEST_TOP_P,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_SYSTEM,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOKEN_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DEFINITIONS,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_WORKFLOW_NAME,
  ATTR_MCP_METHOD_NAME,
  ATTR_NETWORK_TRANSPORT,
  METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
} from '@opentelemetry/semantic-conventions/incubating';

/**
 * The OpenTelemetry semantic-convention attributes agent-trace emits and reads, each named by the
 * published constant (`@opentelemetry/semantic-conventions/incubating`, pinned): no `gen_ai.*`
 * name is typed by hand (lint holds it). What the conventions do not define is agent-trace's own,
 * under `agent_trace.*` ({@link ownAttributes}).
 */
export const semconv = Object.freeze({
  operationName: ATTR_GEN_AI_OPERATION_NAME,
  providerName: ATTR_GEN_AI_PROVIDER_NAME,
  requestModel: ATTR_GEN_AI_REQUEST_MODEL,
  responseModel: ATTR_GEN_AI_RESPONSE_MODEL,
  responseId: ATTR_GEN_AI_RESPONSE_ID,
  /** A streamed call: seconds from the request to its first chunk. */
  timeToFirstChunk: ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  requestStream: ATTR_GEN_AI_REQUEST_STREAM,
  serverAddress: ATTR_SERVER_ADDRESS,
  serverPort: ATTR_SERVER_PORT,
  agentName: ATTR_GEN_AI_AGENT_NAME,
  /** Stable per agent definition: a hash of its name, instructions and tools. */
  agentId: ATTR_GEN_AI_AGENT_ID,
  agentDescription: ATTR_GEN_AI_AGENT_DESCRIPTION,
  agentVersion: ATTR_GEN_AI_AGENT_VERSION,
  workflowName: ATTR_GEN_AI_WORKFLOW_NAME,
  conversationId: ATTR_GEN_AI_CONVERSATION_ID,
  toolName: ATTR_GEN_AI_TOOL_NAME,
  toolCallId: ATTR_GEN_AI_TOOL_CALL_ID,
  toolType: ATTR_GEN_AI_TOOL_TYPE,
  toolDescription: ATTR_GEN_AI_TOOL_DESCRIPTION,
  toolCallArguments: ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  toolCallResult: ATTR_GEN_AI_TOOL_CALL_RESULT,
  inputTokens: ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  outputTokens: ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  cacheReadInputTokens: ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  cacheCreationInputTokens: ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  reasoningOutputTokens: ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  finishReasons: ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  /** `text`, or `json` for a call asked for structured output. */
  outputType: ATTR_GEN_AI_OUTPUT_TYPE,
  temperature: ATTR_GEN_AI_REQUEST_TEMPERATURE,
  maxTokens: ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  topP: ATTR_GEN_AI_REQUEST_TOP_P,
  topK: ATTR_GEN_AI_REQUEST_TOP_K,
  seed: ATTR_GEN_AI_REQUEST_SEED,
  stopSequences: ATTR_GEN_AI_REQUEST_STOP_SEQUENCES,
  frequencyPenalty: ATTR_GEN_AI_REQUEST_FREQUENCY_PENALTY,
  presencePenalty: ATTR_GEN_AI_REQUEST_PRESENCE_PENALTY,
  inputMessages: ATTR_GEN_AI_INPUT_MESSAGES,
  outputMessages: ATTR_GEN_AI_OUTPUT_MESSAGES,
  systemInstructions: ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  toolDefinitions: ATTR_GEN_AI_TOOL_DEFINITIONS,
  /** The metrics' token kind: `input` or `output`. */
  tokenType: ATTR_GEN_AI_TOKEN_TYPE,
  /** The provider, as conventions before `gen_ai.provider.name` named it: read by imports only. */
  system: ATTR_GEN_AI_SYSTEM,
  errorType: ATTR_ERROR_TYPE,
  /** An evaluation event: the scorer, its score and label, and why. */
  evaluationName: ATTR_GEN_AI_EVALUATION_NAME,
  evaluationScoreValue: ATTR_GEN_AI_EVALUATION_SCORE_VALUE,
  evaluationScoreLabel: ATTR_GEN_AI_EVALUATION_SCORE_LABEL,
  evaluationExplanation: ATTR_GEN_AI_EVALUATION_EXPLANATION,
  /** The MCP conventions: the JSON-RPC method of a tool call, and the transport as a network one. */
  mcpMethodName: ATTR_MCP_METHOD_NAME,
  networkTransport: ATTR_NETWORK_TRANSPORT,
});

/** The event an eval's score is sent as, on the span it judges. */
export const evaluationEvent = EVENT_GEN_AI_EVALUATION_RESULT;

/** The GenAI conventions' client metrics agent-trace records. */
export const genAiMetrics = Object.freeze({
  operationDuration: METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  tokenUsage: METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
  timeToFirstChunk: METRIC_GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK,
  timePerOutputChunk: METRIC_GEN_AI_CLIENT_OPERATION_TIME_PER_OUTPUT_CHUNK,
});

/** agent-trace's own attributes. */
export const ownAttributes = Object.freeze({
  /**
   * A handoff's `execute_tool` span: how control passes (`pass_control`, `return_to_caller`) and
   * to which agent. The conventions have no transfer attributes.
   */
  transferMode: 'agent_trace.transfer.mode',
  transferTargetName: 'agent_trace.transfer.target.name',
  runId: 'agent_trace.run_id',
  seq: 'agent_trace.seq',
  /** An agent's memory window (`memory.window`): how many recent messages each request holds. */
  memoryWindow: 'agent_trace.memory.window',
  stopReason: 'agent_trace.stop_reason',
  step: 'agent_trace.step',
  attempt: 'agent_trace.attempt',
  handoffDepth: 'agent_trace.handoff.depth',
  truncated: 'agent_trace.truncated',
  /** An MCP tool's server: its name and transport (the conventions name the method only). */
  mcpServerName: 'agent_trace.mcp.server.name',
  mcpServerTransport: 'agent_trace.mcp.server.transport',
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
  /** A feature's own event or transform: the feature's name, its event's name and data. */
  featureName: 'agent_trace.feature.name',
  featureEvent: 'agent_trace.feature.event',
  featureData: 'agent_trace.feature.data',
  /** A feature's transform: what it changed (`request`, `answer`, `tool_result`) and how. */
  transformTarget: 'agent_trace.transform.target',
  transformChanged: 'agent_trace.transform.changed',
  transformTool: 'agent_trace.transform.tool',
  transformHash: 'agent_trace.transform.hash',
  /** What a transformed tool result reads as (content). */
  transformContent: 'agent_trace.transform.content',
  /** A call a feature refused: the feature, and its own kind of refusal. */
  refusalFeature: 'agent_trace.refusal.feature',
  refusalKind: 'agent_trace.refusal.kind',
});

/** An attribute name agent-trace puts on spans. */
export type AttributeName =
  (typeof semconv)[keyof typeof semconv] | (typeof ownAttributes)[keyof typeof ownAttributes];

/** A span's attributes, keyed by the names above only (a misspelt name does not compile). */
export type SpanAttributes = { [Name in AttributeName]?: AttributeValue };

/** The conventions' provider names that hold a dot, which stay whole. */
const dottedProviders: ReadonlySet<string> = new Set([
  GEN_AI_PROVIDER_NAME_VALUE_AWS_BEDROCK,
  GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_INFERENCE,
  GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_OPENAI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEN_AI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_VERTEX_AI,
  GEN_AI_PROVIDER_NAME_VALUE_IBM_WATSONX_AI,
]);

/**
 * The conventions' provider name for a provider id: agent-trace's name the API after a dot
 * (`openai.chat` → `openai`), while a name the conventions define (`aws.bedrock`, read back from
 * an import) stays as it is.
 */
export function providerName(provider: string): string {
  if (dottedProviders.has(provider)) return provider;
  return provider.split('.')[0] ?? provider;
}

/** Finish reasons in the conventions' enum (`tool_calls` → `tool_call`). */
export function finishReason(reason: string): string {
  return reason === 'tool_calls' ? 'tool_call' : reason;
}
