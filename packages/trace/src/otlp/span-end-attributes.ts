import { SpanStatusCode, TraceFlags, type HrTime, type SpanKind } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';
import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import { finishReason, ownAttributes, semconv, type SpanAttributes } from './semconv.js';

/** A content attribute's value (cut to the longest allowed), when content is captured. */
export type Content = ((value: unknown) => string) | undefined;

/** An ISO time as OpenTelemetry's `[seconds, nanoseconds]`. */
export function hrTime(iso: string): HrTime {
  const milliseconds = Date.parse(iso);
  return [Math.floor(milliseconds / 1000), (milliseconds % 1000) * 1_000_000];
}

function hrDuration(start: HrTime, end: HrTime): HrTime {
  let seconds = end[0] - start[0];
  let nanos = end[1] - start[1];
  if (nanos < 0) {
    seconds--;
    nanos += 1_000_000_000;
  }
  return seconds < 0 ? [0, 0] : [seconds, nanos];
}

/** A run's span at its end: how it stopped, its tokens and cost. */
export function runEndAttributes(
  end: TraceEventOf<'run_end'>,
  attributes: SpanAttributes,
): undefined {
  stopAndUsage(end, attributes);
  return undefined;
}

/** How a run or an agent stopped, its tokens, and its cost (when priced). */
function stopAndUsage(
  end: TraceEventOf<'run_end'> | TraceEventOf<'agent_end'>,
  attributes: SpanAttributes,
): void {
  attributes['agent_trace.stop_reason'] = end.stop_reason;
  attributes[semconv.inputTokens] = end.tok_prompt;
  attributes[semconv.outputTokens] = end.tok_completion;
  if (end.cost !== undefined) {
    attributes['agent_trace.cost_usd'] = end.cost.usd;
    attributes['agent_trace.cost.unpriced_calls'] = end.cost.unpriced_calls;
  }
}

/** An agent's span at its end: its tokens, stop, cost, tool-calling mode, instructions and tools. */
export function agentEndAttributes(
  start: TraceEventOf<'agent_start'>,
  end: TraceEventOf<'agent_end'>,
  attributes: SpanAttributes,
  content: Content,
): undefined {
  stopAndUsage(end, attributes);
  if (start.description !== undefined) attributes[semconv.agentDescription] = start.description;
  if (start.version !== undefined) attributes[semconv.agentVersion] = start.version;
  if (start.tool_calling !== undefined) attributes['agent_trace.tool_calling'] = start.tool_calling;
  if (start.memory_window !== undefined)
    attributes[ownAttributes.memoryWindow] = start.memory_window;
  if (content !== undefined && start.instructions !== '')
    attributes[semconv.systemInstructions] = content([
      { type: 'text', content: start.instructions },
    ]);
  if (content !== undefined && start.tool_definitions !== undefined)
    attributes[semconv.toolDefinitions] = content(functionDefinitions(start.tool_definitions));
  return undefined;
}

/** A model call's span at its end: tokens, cache, finish reason, attempt and cost. */
export function llmEndAttributes(
  start: TraceEventOf<'llm_start'>,
  end: TraceEventOf<'llm_end'>,
  attributes: SpanAttributes,
): void {
  attributes[semconv.inputTokens] = end.tok_prompt;
  attributes[semconv.outputTokens] = end.tok_completion;
  attributes['agent_trace.step'] = start.step;
  if (end.tok_cache_read !== undefined)
    attributes[semconv.cacheReadInputTokens] = end.tok_cache_read;
  if (end.tok_cache_write !== undefined)
    attributes[semconv.cacheCreationInputTokens] = end.tok_cache_write;
  if (end.tok_reasoning !== undefined)
    attributes[semconv.reasoningOutputTokens] = end.tok_reasoning;
  if (end.finish_reason !== undefined)
    attributes[semconv.finishReasons] = [finishReason(end.finish_reason)];
  if (start.attempt !== undefined) attributes['agent_trace.attempt'] = start.attempt;
  if (end.cost_usd !== undefined) attributes['agent_trace.cost_usd'] = end.cost_usd;
  if (end.cache_hit === true) attributes['agent_trace.cache_hit'] = true;
}

/** A tool call's span at its end: its call, attempt, MCP server, and content when captured. */
export function toolEndAttributes(
  start: TraceEventOf<'tool_start'>,
  end: TraceEventOf<'tool_end'>,
  attributes: SpanAttributes,
  content: Content,
): undefined {
  attributes[semconv.toolCallId] = start.call_id;
  // The conventions' tool types: an MCP server's tool is an extension, the agent's own a function.
  attributes[semconv.toolType] = start.mcp_server === undefined ? 'function' : 'extension';
  attributes[semconv.agentName] = start.agent;
  attributes['agent_trace.attempt'] = end.attempt;
  if (start.mcp_server !== undefined) {
    // The OpenTelemetry MCP conventions: the method, and the transport as a network one.
    attributes['mcp.method.name'] = 'tools/call';
    attributes['network.transport'] = mcpNetworkTransport(start.mcp_server.transport);
    attributes['agent_trace.mcp.server.name'] = start.mcp_server.name;
    attributes['agent_trace.mcp.server.transport'] = start.mcp_server.transport;
  }
  if (content !== undefined) {
    attributes[semconv.toolCallArguments] = content(start.args);
    if (end.result !== undefined) attributes[semconv.toolCallResult] = content(end.result);
    if (start.thought !== undefined)
      attributes['agent_trace.react.thought'] = content(start.thought);
  }
  return undefined;
}

/** A workflow's span at its end: its status and plan revision. */
export function workflowEndAttributes(
  start: TraceEventOf<'workflow_start'>,
  end: TraceEventOf<'workflow_end'>,
  attributes: SpanAttributes,
): undefined {
  attributes['agent_trace.workflow.status'] = end.status;
  if (start.plan_revision !== undefined)
    attributes['agent_trace.plan.revision'] = start.plan_revision;
  return undefined;
}

/** A workflow step's span at its end: its name, status, attempts and items. */
export function stepEndAttributes(
  start: TraceEventOf<'workflow_step_start'>,
  end: TraceEventOf<'workflow_step_end'>,
  attributes: SpanAttributes,
): undefined {
  attributes['agent_trace.workflow.step'] = start.name;
  attributes['agent_trace.workflow.step.status'] = end.status;
  attributes['agent_trace.workflow.step.attempts'] = end.attempts;
  if (start.items !== undefined) attributes['agent_trace.workflow.step.items'] = start.items;
  return undefined;
}

/**
 * A handoff's span: an `execute_tool` of the transfer (named after the tool call that made it,
 * else `transfer_to_<target>`), with the transfer's mode, target and depth. Returns its name.
 */
export function handoffAttributes(
  handoff: TraceEventOf<'handoff_start'>,
  callingTool: string | undefined,
  attributes: SpanAttributes,
): string {
  const tool = callingTool ?? `transfer_to_${handoff.to}`;
  attributes[semconv.toolName] = tool;
  attributes[semconv.toolType] = 'function';
  attributes[ownAttributes.transferMode] = handoff.mode;
  attributes[ownAttributes.transferTargetName] = handoff.to;
  attributes['agent_trace.handoff.depth'] = handoff.depth;
  if (handoff.call_id !== undefined) attributes[semconv.toolCallId] = handoff.call_id;
  return `execute_tool ${tool} ${handoff.to}`;
}

/** `network.transport` of an MCP transport: stdio is a pipe, Streamable HTTP runs over TCP. */
function mcpNetworkTransport(transport: string): string {
  if (transport === 'stdio') return 'pipe';
  if (transport === 'http') return 'tcp';
  return 'inproc';
}

/** The ended span the SDK's processor takes, with the trace's own ids and times. */
export function readableSpan(
  head: { readonly name: string; readonly kind: SpanKind; readonly attributes: SpanAttributes },
  pending: { readonly start: TraceEvent; readonly events: TimedEvent[] },
  end: TraceEvent,
  error: { readonly message: string } | undefined,
  resource: Resource,
): ReadableSpan {
  const { start } = pending;
  const startTime = hrTime(start.time);
  const endTime = hrTime(end.time);
  const spanContext = {
    traceId: start.trace_id,
    spanId: start.span_id,
    traceFlags: TraceFlags.SAMPLED,
  };
  return {
    name: head.name,
    kind: head.kind,
    spanContext: () => spanContext,
    parentSpanContext:
      start.parent_span_id === null
        ? undefined
        : { traceId: start.trace_id, spanId: start.parent_span_id, traceFlags: TraceFlags.SAMPLED },
    startTime,
    endTime,
    duration: hrDuration(startTime, endTime),
    status:
      error === undefined
        ? { code: SpanStatusCode.OK }
        : { code: SpanStatusCode.ERROR, message: error.message },
    attributes: head.attributes,
    links: [],
    events: pending.events,
    ended: true,
    resource,
    instrumentationScope: { name: '@agent-trace/trace', version: '0.1.0' },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** An agent's tool definitions as `gen_ai.tool.definitions` holds them: function tools. */
export function functionDefinitions(
  definitions: NonNullable<TraceEventOf<'agent_start'>['tool_definitions']>,
): unknown[] {
  return definitions.map(({ name, description, parameters }) => ({
    type: 'function',
    name,
    description,
    parameters,
  }));
}
