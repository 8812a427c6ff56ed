import { SpanKind } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';
import type { TraceEvent, TraceEventOf } from '@agent-trace/core';

/** A tool call as `llm_end` and assistant messages record it. */
import {
  agentEndAttributes,
  handoffAttributes,
  hrTime,
  llmEndAttributes,
  readableSpan,
  runEndAttributes,
  stepEndAttributes,
  toolEndAttributes,
  workflowEndAttributes,
} from './span-end-attributes.js';
import { RequestPreambles } from './request-preambles.js';
import { plainSpanHead } from './plain-span.js';
import { featureSpanEvent, transformSpanEvent } from './feature-span-events.js';
import {
  finishReason,
  ownAttributes,
  providerName,
  semconv,
  type SpanAttributes,
} from './semconv.js';
import { AgentMemory, agentId, requestAttributes } from './genai-request.js';
import { addOpenInference } from './open-inference.js';
import { assistantParts } from './genai-parts.js';

/** Options of the span mapping. */
export interface SpanMappingOptions {
  /** Record message content, tool arguments and results (opt-in, per the conventions). */
  readonly captureContent: boolean;
  /** The most characters of one content attribute; longer ones are cut with a marker. */
  readonly maxAttributeLength: number;
  readonly resource: Resource;
  /** Add the OpenInference attributes (for Arize Phoenix) beside the GenAI ones. */
  readonly openInference?: boolean;
}

interface PendingSpan {
  readonly start: TraceEvent;
  readonly events: TimedEvent[];
}

/**
 * Turns agent-trace events into OpenTelemetry spans with the GenAI conventions, keeping the
 * events' own trace ids, span ids and times: a span is made when its end event arrives.
 * `invoke_workflow` for the run and for each workflow, `workflow_step {step}` (INTERNAL) for workflow
 * steps, `invoke_agent {agent}` (INTERNAL) for agents, `chat {model}` (CLIENT) for model calls,
 * `execute_tool {tool}` (INTERNAL) for tools, and for handoffs an `execute_tool` span with
 * `agent_trace.transfer.*` whose child is the target's `invoke_agent`; a plain span (another system's,
 * imported) keeps its name, kind and attributes. Guardrail verdicts, retries,
 * approvals and plans become span events of their parent.
 */
export class SpanBuilder {
  readonly #options: SpanMappingOptions;
  readonly #pending = new Map<string, PendingSpan>();
  readonly #toolNames = new Map<string, string>();
  readonly #preambles = new RequestPreambles();
  readonly #agents = new AgentMemory();
  /** How many content attributes were cut. */
  truncated = 0;
  #lastTime = '';

  constructor(options: SpanMappingOptions) {
    this.#options = options;
  }

  /** Takes one event; returns the finished span when the event ends one. */
  accept(event: TraceEvent): ReadableSpan | undefined {
    this.#lastTime = event.time;
    switch (event.event) {
      case 'run_start':
      case 'agent_start':
      case 'llm_start':
      case 'tool_start':
      case 'handoff_start':
      case 'workflow_start':
      case 'workflow_step_start':
      case 'span_start':
        this.#pending.set(event.span_id, { start: event, events: [] });
        if (event.event === 'tool_start') this.#toolNames.set(event.span_id, event.tool);
        else if (event.event === 'run_start') {
          if (this.#options.captureContent) this.#agents.runStarted(event);
        } else if (event.event === 'agent_start') {
          this.#agents.started(event);
          if (this.#options.captureContent) this.#preambles.remember(event);
        }
        return undefined;
      case 'guardrail':
      case 'retry':
      case 'malformed_answer':
      case 'approval_requested':
      case 'approval_resolved':
      case 'rate_limit_wait':
      case 'feature':
      case 'transform':
      case 'plan': {
        const parent =
          event.parent_span_id === null ? undefined : this.#pending.get(event.parent_span_id);
        const point = this.#pointEvent(event);
        // Its seq places it among the span's children again when the spans are imported.
        point.attributes = { ...point.attributes, [ownAttributes.seq]: event.seq };
        parent?.events.push(point);
        return undefined;
      }
      default: {
        const pending = this.#pending.get(event.span_id);
        if (pending === undefined) return undefined;
        this.#pending.delete(event.span_id);
        return this.#span(pending, event);
      }
    }
  }

  /**
   * Ends the spans whose end event never came — a trace cut off by a crash or a kill — at the
   * last event's time, with status ERROR and `error.type` `unfinished`, children first, so an
   * exported torn trace still shows everything that started.
   */
  unfinished(): ReadableSpan[] {
    const spans = [...this.#pending.values()].reverse().map(pending => {
      const end = {
        time: this.#lastTime,
        stop_reason: 'unfinished',
        tok_prompt: 0,
        tok_completion: 0,
        attempt: (pending.start as { attempt?: number }).attempt ?? 1,
        error: {
          type: 'unfinished',
          message: 'No end event: the trace was cut off (crash or kill) before this span ended.',
        },
      } as unknown as TraceEvent;
      return this.#span(pending, end);
    });
    this.#pending.clear();
    return spans;
  }

  #pointEvent(
    event:
      | TraceEventOf<'guardrail'>
      | TraceEventOf<'retry'>
      | TraceEventOf<'malformed_answer'>
      | TraceEventOf<'approval_requested'>
      | TraceEventOf<'approval_resolved'>
      | TraceEventOf<'rate_limit_wait'>
      | TraceEventOf<'feature'>
      | TraceEventOf<'transform'>
      | TraceEventOf<'plan'>,
  ): TimedEvent {
    const time = hrTime(event.time);
    if (event.event === 'plan') return this.#planEvent(event, time);
    if (event.event === 'feature') return featureSpanEvent(event, time);
    if (event.event === 'transform')
      return transformSpanEvent(
        event,
        time,
        this.#options.captureContent ? value => this.#content(value) : undefined,
      );
    if (event.event === 'rate_limit_wait')
      return {
        name: 'agent_trace.rate_limit_wait',
        time,
        attributes: {
          'agent_trace.rate_limit.provider': event.provider,
          'agent_trace.rate_limit.waited_ms': event.waited_ms,
          'agent_trace.rate_limit.reason': event.reason,
        },
        droppedAttributesCount: 0,
      };
    if (event.event === 'approval_requested' || event.event === 'approval_resolved')
      return this.#approvalEvent(event, time);
    if (event.event === 'malformed_answer') {
      return {
        name: 'agent_trace.malformed_answer',
        time,
        attributes: {
          'agent_trace.malformed_answer.problem': event.problem,
          'agent_trace.malformed_answer.count': event.count,
          [ownAttributes.step]: event.step,
          ...(this.#options.captureContent
            ? { 'agent_trace.malformed_answer.message': this.#content(event.message) }
            : {}),
        },
        droppedAttributesCount: 0,
      };
    }
    if (event.event === 'guardrail') {
      return {
        name: 'agent_trace.guardrail',
        time,
        attributes: {
          'agent_trace.guardrail.name': event.guardrail,
          'agent_trace.guardrail.stage': event.stage,
          'agent_trace.guardrail.verdict': event.verdict,
          'agent_trace.guardrail.reason': event.reason,
        },
        droppedAttributesCount: 0,
      };
    }
    return {
      name: 'agent_trace.retry',
      time,
      attributes: {
        'agent_trace.retry.target': event.target,
        'agent_trace.retry.name': event.name,
        [ownAttributes.attempt]: event.attempt,
        'agent_trace.retry.delay_ms': event.delay_ms,
        [semconv.errorType]: event.error.type,
        ...(event.fallback === undefined ? {} : { 'agent_trace.retry.fallback': event.fallback }),
      },
      droppedAttributesCount: 0,
    };
  }

  #approvalEvent(
    event: TraceEventOf<'approval_requested'> | TraceEventOf<'approval_resolved'>,
    time: ReturnType<typeof hrTime>,
  ): TimedEvent {
    const attributes: Record<string, string> = {
      [semconv.toolName]: event.tool,
      [semconv.toolCallId]: event.call_id,
    };
    if (event.event === 'approval_requested') attributes['agent_trace.approval.kind'] = event.kind;
    else {
      attributes['agent_trace.approval.decision'] = event.decision;
      if (event.by !== undefined) attributes['agent_trace.approval.by'] = event.by;
      if (event.reason !== undefined && this.#options.captureContent)
        attributes['agent_trace.approval.reason'] = this.#content(event.reason);
    }
    return { name: `agent_trace.${event.event}`, time, attributes, droppedAttributesCount: 0 };
  }

  /** A planner's plan: its revision, verdict and problems; the plan itself is content. */
  #planEvent(event: TraceEventOf<'plan'>, time: ReturnType<typeof hrTime>): TimedEvent {
    const attributes: Record<string, string | number> = {
      'agent_trace.plan.revision': event.revision,
      'agent_trace.plan.verdict': event.verdict,
      'agent_trace.plan.reason': event.reason,
    };
    if (event.problems !== undefined)
      attributes['agent_trace.plan.problems'] = event.problems.join('\n');
    if (this.#options.captureContent) attributes['agent_trace.plan'] = this.#content(event.plan);
    return { name: 'agent_trace.plan', time, attributes, droppedAttributesCount: 0 };
  }

  #content(value: unknown): string {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
    if (text.length <= this.#options.maxAttributeLength) return text;
    this.truncated++;
    return `${text.slice(0, this.#options.maxAttributeLength)}…[truncated ${text.length - this.#options.maxAttributeLength} chars]`;
  }

  #span(pending: PendingSpan, end: TraceEvent): ReadableSpan {
    const { start } = pending;
    // The name, kind and sampling attributes are the start's (what a live span starts with); the
    // rest are added at the end. Literal keys, assigned one by one: computed keys and spreads in
    // object literals take V8's slow path, and this runs twice per step. `SpanAttributes` checks
    // every name.
    const head = spanHead(start);
    const { attributes } = head;
    // A plain span keeps the attributes it came with (and the run id), so it exports as it came.
    if (start.event !== 'span_start') {
      attributes[semconv.conversationId] = start.session;
      // A span followed live has no seq yet (-1): the trace gives it when the event is written.
      if (start.seq >= 0) attributes[ownAttributes.seq] = start.seq;
    }
    const name = this.#endAttributes(start, end, attributes) ?? head.name;
    const error = (end as { error?: TraceEventOf<'tool_end'>['error'] }).error;
    // The conventions' error type: the HTTP status a provider answered with, else the kind.
    if (error !== undefined) {
      attributes['error.type'] = error.status === undefined ? error.type : String(error.status);
      if (error.feature !== undefined) {
        attributes[ownAttributes.refusalFeature] = error.feature;
        if (error.refusal !== undefined) attributes[ownAttributes.refusalKind] = error.refusal;
      }
    }
    if (this.#options.openInference === true)
      addOpenInference(start, end, attributes, this.#options.captureContent);
    return readableSpan({ ...head, name }, pending, end, error, this.#options.resource);
  }

  /** The attributes a span gets at its end, by kind; a handoff's span name, which it renames. */
  #endAttributes(
    start: TraceEvent,
    end: TraceEvent,
    attributes: SpanAttributes,
  ): string | undefined {
    const content = this.#options.captureContent
      ? (value: unknown) => this.#content(value)
      : undefined;
    switch (start.event) {
      case 'run_start':
        this.#agents.runEnded(start.run);
        return runEndAttributes(end as TraceEventOf<'run_end'>, attributes);
      case 'agent_start':
        this.#agents.ended(start.span_id);
        attributes[semconv.agentId] = agentId(start);
        return agentEndAttributes(start, end as TraceEventOf<'agent_end'>, attributes, content);
      case 'llm_start': {
        const llmEnd = end as TraceEventOf<'llm_end'>;
        llmEndAttributes(start, llmEnd, attributes);
        requestAttributes(start, llmEnd, attributes);
        if (content !== undefined) {
          const { input, output } = this.#messages(start, llmEnd);
          attributes[semconv.inputMessages] = input;
          attributes[semconv.outputMessages] = output;
          this.#preambles.describe(start, attributes, content);
        }
        return undefined;
      }
      case 'tool_start': {
        const description =
          start.description ?? this.#agents.toolDescription(start.agent, start.tool);
        if (description !== undefined) attributes[semconv.toolDescription] = description;
        return toolEndAttributes(start, end as TraceEventOf<'tool_end'>, attributes, content);
      }
      case 'workflow_start':
        return workflowEndAttributes(start, end as TraceEventOf<'workflow_end'>, attributes);
      case 'workflow_step_start':
        return stepEndAttributes(start, end as TraceEventOf<'workflow_step_end'>, attributes);
      case 'span_start':
        return undefined;
      default: {
        const handoff = start as TraceEventOf<'handoff_start'>;
        const parent = handoff.parent_span_id;
        const calling = parent === null ? undefined : this.#toolNames.get(parent);
        // The description the model was shown of the tool that made the transfer.
        const description = this.#agents.toolDescription(
          handoff.from,
          calling ?? `transfer_to_${handoff.to}`,
        );
        if (description !== undefined) attributes[semconv.toolDescription] = description;
        return handoffAttributes(handoff, calling, attributes);
      }
    }
  }

  #messages(
    start: TraceEventOf<'llm_start'>,
    end: TraceEventOf<'llm_end'>,
  ): { input: string; output: string } {
    const input = this.#agents.sent(start).map(message => {
      if (message.role === 'tool')
        return {
          role: 'tool',
          parts: [{ type: 'tool_call_response', id: message.call_id, response: message.content }],
        };
      if (message.role === 'assistant')
        return {
          role: 'assistant',
          parts: assistantParts(message.content, message.tool_calls, message.reasoning),
        };
      return { role: 'user', parts: [{ type: 'text', content: message.content }] };
    });
    const output =
      end.error === undefined
        ? [
            {
              role: 'assistant',
              parts: assistantParts(end.text ?? '', end.tool_calls ?? [], end.reasoning),
              finish_reason: finishReason(end.finish_reason ?? 'stop'),
            },
          ]
        : [];
    return { input: this.#content(input), output: this.#content(output) };
  }
}

/**
 * A span's name, kind and the attributes a sampler may read, from its start event alone: what a
 * span started live (through the application's tracer) is created with. The rest comes at its
 * end, from {@link SpanBuilder}.
 */
export function spanHead(start: TraceEvent): {
  name: string;
  kind: SpanKind;
  attributes: SpanAttributes;
} {
  const attributes: SpanAttributes = { 'agent_trace.run_id': start.run };
  switch (start.event) {
    case 'run_start':
      return workflowSpanHead(start.run, start.agent);
    case 'workflow_start':
      return workflowSpanHead(start.run, start.workflow);
    case 'workflow_step_start':
      attributes[semconv.workflowName] = start.workflow;
      return { name: `workflow_step ${start.name}`, kind: SpanKind.INTERNAL, attributes };
    case 'span_start':
      return plainSpanHead(start);
    case 'agent_start':
      attributes[semconv.operationName] = 'invoke_agent';
      attributes[semconv.providerName] = providerName(start.provider);
      attributes[semconv.requestModel] = start.model;
      attributes[semconv.agentName] = start.agent;
      return { name: `invoke_agent ${start.agent}`, kind: SpanKind.INTERNAL, attributes };
    case 'llm_start':
      attributes[semconv.operationName] = 'chat';
      attributes[semconv.providerName] = providerName(start.provider);
      attributes[semconv.requestModel] = start.model;
      return { name: `chat ${start.model}`, kind: SpanKind.CLIENT, attributes };
    case 'tool_start':
      attributes[semconv.operationName] = 'execute_tool';
      attributes[semconv.toolName] = start.tool;
      return { name: `execute_tool ${start.tool}`, kind: SpanKind.INTERNAL, attributes };
    case 'handoff_start':
      attributes[semconv.operationName] = 'execute_tool';
      attributes[semconv.agentName] = start.from;
      return {
        name: `execute_tool transfer_to_${start.to} ${start.to}`,
        kind: SpanKind.INTERNAL,
        attributes,
      };
    default:
      return { name: start.event, kind: SpanKind.INTERNAL, attributes };
  }
}

/**
 * The head of an `invoke_workflow` span: a run's (named after its entry agent, workflow or
 * planner) or a workflow's. A live sink starts a run's span with it before `run_start` exists.
 */
export function workflowSpanHead(
  runId: string,
  workflow: string,
): { name: string; kind: SpanKind; attributes: SpanAttributes } {
  return {
    name: `invoke_workflow ${workflow}`,
    kind: SpanKind.INTERNAL,
    attributes: {
      'agent_trace.run_id': runId,
      [semconv.operationName]: 'invoke_workflow',
      [semconv.workflowName]: workflow,
    },
  };
}
