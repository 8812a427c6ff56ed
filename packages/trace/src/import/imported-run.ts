import type { IdGenerator, Message, StopReason, TraceSink } from '@agent-trace/core';
import { PriceTable } from '@agent-trace/core/cost';
import {
  bridgedRunTally,
  jsonOrText,
  RecordedAgent,
  RunTracer,
  sealRun,
  type OpenSpan,
} from '@agent-trace/core/record';
import { defined } from '@agent-trace/core/util';
import { Redactor } from '@agent-trace/core/redaction';
import { count, json, text, type ForeignSpan } from './foreign-span.js';
import {
  answerOf,
  finishReasonOf,
  instructionsOf,
  messagesOf,
  toolDefinitionsOf,
} from './genai-messages.js';
import { ownAttributes, semconv } from '../otlp/semconv.js';
import { firstChunkMsOf, requestOf } from './imported-request.js';
import { comesBefore, pointsOf, type ImportedPoint } from './imported-points.js';
import { newMessages } from './imported-input.js';

/** A span with its children, in time order. */
export interface SpanNode {
  readonly span: ForeignSpan;
  readonly children: SpanNode[];
  /** Set on the node the import makes to hold a trace's several roots: not a span of the trace. */
  readonly synthetic?: true;
}

/**
 * Where a span's events hang: the parent span, and the agent it runs under (the parent may be a
 * plain span inside that agent).
 */
interface Context {
  readonly parent: OpenSpan;
  readonly agent?: ImportedAgent;
  /** Under a tool call or a handoff: the agent that made it, whom a plain span there belongs to. */
  readonly caller?: string;
}

/** An agent of the imported run, with what the import keeps between its calls. */
class ImportedAgent extends RecordedAgent {
  /** The messages of its conversation so far, to tell what a call's input adds to it. */
  readonly conversation: Message[] = [];
  /** Whether each of its tool calls failed, by call id. */
  readonly toolFailed = new Map<string, boolean>();
  /** True for an agent with a memory window (`agent_trace.memory.window`). */
  windowed = false;
  /** The agent it handed the conversation to (pass_control): its answer is this agent's. */
  handedTo: string | undefined;
  /** The error of its last model call, when that call failed (an agent made for calls outside one ends with it). */
  lastError: Error | undefined;

  /** The tools its model's answers called, by call id. */
  readonly called = new Map<string, string>();

  /** The tool an earlier answer of its model called with id `callId`; '' when none did. */
  toolNameOf(callId: string): string {
    return this.called.get(callId) ?? '';
  }
}

/** The model call operations of the GenAI conventions. */
const modelCalls = new Set(['chat', 'text_completion', 'generate_content']);

/**
 * One trace of GenAI-convention spans as one agent-trace run, written through core's own
 * `RunTracer`: `invoke_agent` spans are agents, `chat` spans model calls, `execute_tool` spans
 * tool calls (or handoffs, with `agent_trace.transfer.*`). The events keep the spans' ids and times.
 * Spans of other kinds are plain spans (`span_start` / `span_end`) with their name and attributes,
 * counted by name.
 */
export class ImportedRun {
  readonly tracer: RunTracer;
  /** The spans kept as plain spans, by name, with how many. */
  readonly plain = new Map<string, number>();
  readonly #name: string;
  /** The service of the trace's root: a plain span of another names its own. */
  #service: string | undefined;
  readonly #clock: { now: () => number; at: number };
  readonly #ids: { span?: string };
  readonly #prices = new PriceTable();
  readonly #tally = bridgedRunTally();
  /** The text of the last model call answered: the run's output, and a handing-off agent's. */
  #answer = '';
  /** Agents made for model calls outside an agent span, by the span they hang under. */
  readonly #implicit = new Map<string, ImportedAgent>();
  /**
   * Whether each tool call failed, by tool and call id: the conventions' tool messages carry no
   * error flag, so a later request's tool message is an error when its call's span was one. An
   * agent's own calls are looked up first (call ids repeat across agents).
   */
  readonly #toolFailed = new Map<string, boolean>();

  constructor(traceId: string, runId: string, name: string, sinks: readonly TraceSink[]) {
    const clock = { at: 0, now: () => clock.at };
    this.#clock = clock;
    this.#name = name;
    const next: { span?: string } = {};
    this.#ids = next;
    let spans = 0;
    const ids: IdGenerator = {
      runId: () => runId,
      traceId: () => traceId.padStart(32, '0'),
      // The spans the import adds (the run's, an agent for calls outside one): hex, as ids are.
      spanId: () => next.span ?? `a9e0${(++spans).toString(16).padStart(12, '0')}`,
      callId: () => `imported-call-${++spans}`,
    };
    this.tracer = new RunTracer({
      sinks,
      runId,
      session: runId,
      clock: clock,
      ids,
      name,
      redaction: new Redactor(),
    });
  }

  /** Writes the run: its start at the root's start, the tree, its seal at the root's end. */
  write(root: SpanNode, input: string, name: string): void {
    const run = root.span;
    // A run agent-trace exported keeps its span; another system's root hangs under the run's.
    const own = text(run, semconv.operationName) === 'invoke_workflow';
    this.#service = run.service ?? root.children[0]?.span.service;
    this.#at(run.startMs, own ? run.spanId : undefined);
    const runSpan = this.tracer.start('run_start', name, null, { input });
    if (own || root.synthetic === true) this.#children(root, { parent: runSpan });
    else this.#children({ span: run, children: [root] }, { parent: runSpan });
    this.#at(run.endMs);
    sealRun(this.tracer, runSpan, {
      stopReason: stopOf(run),
      output: this.#answer,
      tally: this.#tally,
      ...(run.error === undefined ? {} : { error: new Error(run.error) }),
    });
  }

  /** Visits a span's children under `context`, then ends the agent made for calls outside one. */
  #children(node: SpanNode, context: Context): void {
    // The span's own events (its guardrails' verdicts) go between its children, as they happened.
    const points = pointsOf(node.span);
    let next = 0;
    for (const child of node.children) {
      while (next < points.length && comesBefore(points[next]!, child.span))
        this.#point(points[next++]!, context);
      this.#visit(child, context);
    }
    while (next < points.length) this.#point(points[next++]!, context);
    const implicit = this.#implicit.get(context.parent.spanId);
    if (implicit === undefined) return;
    this.#implicit.delete(context.parent.spanId);
    this.#at(node.span.endMs);
    // Its last call failed: so did it, as a loop's agent whose model call fails does.
    implicit.ended(
      implicit.lastError === undefined
        ? { stopReason: 'completed', output: implicit.lastText }
        : { stopReason: 'error', output: implicit.lastText, error: implicit.lastError },
    );
  }

  #point(point: ImportedPoint, context: Context): void {
    this.#at(point.timeMs);
    this.tracer.point('guardrail', context.parent, point.fields);
  }

  #visit(node: SpanNode, context: Context): void {
    const { span } = node;
    const operation = text(span, semconv.operationName);
    if (operation === 'invoke_agent' || operation === 'create_agent')
      return this.#agent(node, context);
    if (operation !== undefined && modelCalls.has(operation)) return this.#modelCall(node, context);
    if (operation === 'execute_tool') {
      const target = text(span, ownAttributes.transferTargetName);
      return target === undefined
        ? this.#tool(node, context)
        : this.#handoff(node, context, target);
    }
    this.#plain(node, context);
  }

  /** A span of none of the kinds above: a plain span, with its name, kind and attributes. */
  #plain(node: SpanNode, context: Context): void {
    const { span } = node;
    this.plain.set(span.name, (this.plain.get(span.name) ?? 0) + 1);
    this.#at(span.startMs, span.spanId);
    const name = span.name;
    const opened = this.tracer.start(
      'span_start',
      context.agent?.agent ?? context.caller ?? this.#name,
      context.parent,
      {
        name,
        ...defined('span_kind', span.kind),
        ...plainAttributes(span),
        ...defined('service', span.service === this.#service ? undefined : span.service),
      },
    );
    this.#children(node, { ...context, parent: opened });
    this.#at(span.endMs);
    this.tracer.end(opened, {
      name,
      ...(span.error === undefined
        ? {}
        : { error: { type: text(span, 'error.type') ?? 'Error', message: span.error } }),
    });
  }

  #agent(node: SpanNode, context: Context): void {
    const { span } = node;
    const name = text(span, semconv.agentName) ?? span.name.replace(/^invoke_agent\s*/, '');
    const description = text(span, semconv.agentDescription);
    const version = text(span, semconv.agentVersion);
    const memoryWindow = count(span, ownAttributes.memoryWindow);
    const agent = new ImportedAgent(this.tracer, name, context.parent, {
      prices: this.#prices,
      runTally: this.#tally,
      start: {
        ...defined('description', description),
        ...defined('version', version),
        ...defined('memoryWindow', memoryWindow),
      },
    });
    agent.windowed = memoryWindow !== undefined;
    this.#at(span.startMs, span.spanId);
    const agentSpan = agent.startAgent(
      {
        provider: text(span, semconv.providerName) ?? '',
        model: text(span, semconv.requestModel) ?? '',
      },
      instructionsOf(json(span, semconv.systemInstructions)) ?? '',
      toolDefinitionsOf(json(span, semconv.toolDefinitions)),
    );
    this.#children(node, { parent: agentSpan, agent });
    this.#at(span.endMs);
    const handedTo = agent.handedTo;
    agent.ended({
      stopReason: stopOf(span),
      output: handedTo === undefined ? agent.lastText : this.#answer,
      ...(span.error === undefined ? {} : { error: new Error(span.error) }),
      ...(handedTo === undefined ? {} : { handedOffTo: handedTo }),
    });
  }

  #modelCall(node: SpanNode, context: Context): void {
    const { span } = node;
    const provider = text(span, semconv.providerName) ?? text(span, semconv.system) ?? '';
    const answeredBy = text(span, semconv.responseModel);
    const model = answeredBy ?? text(span, semconv.requestModel) ?? '';
    const agent = context.agent ?? this.#implicitAgent(node, context, provider, model);
    const read = messagesOf(json(span, semconv.inputMessages));
    const { instructions } = read;
    const messages = read.messages.map(message => {
      if (message.role !== 'tool') return message;
      // A result whose call is not among this span's messages: named by the agent's earlier call.
      const named =
        message.toolName === ''
          ? { ...message, toolName: agent.toolNameOf(message.callId) }
          : message;
      return (agent.toolFailed.get(named.callId) ??
        this.#toolFailed.get(`${named.toolName}\n${named.callId}`) === true)
        ? { ...named, isError: true }
        : named;
    });
    const fresh = newMessages(agent.conversation, messages);
    agent.conversation.push(...fresh);
    this.#at(span.startMs, span.spanId);
    agent.modelCallStarted({
      ...defined('parent', between(context)),
      provider,
      model,
      instructions:
        instructionsOf(json(span, semconv.systemInstructions)) ?? instructions.join('\n\n'),
      tools: toolDefinitionsOf(json(span, semconv.toolDefinitions)),
      messages: fresh,
      // An agent with a memory window hashes each request over what it sent, as the loop does.
      ...(agent.windowed ? { window: messages } : {}),
      ...requestOf(span),
    });
    const answer = answerOf(json(span, semconv.outputMessages));
    // An array attribute, or (from Jaeger, which keeps arrays as JSON text) its JSON.
    const reasons = json(span, semconv.finishReasons);
    const reason = Array.isArray(reasons)
      ? String(reasons[0])
      : (answer.finishReason ?? (typeof reasons === 'string' ? reasons : undefined));
    this.#at(span.endMs);
    agent.modelCallEnded({
      provider,
      model,
      text: answer.text,
      toolCalls: answer.toolCalls,
      ...(answer.reasoning.length === 0 ? {} : { reasoning: answer.reasoning }),
      finishReason: finishReasonOf(reason, answer.toolCalls.length > 0),
      usage: {
        promptTokens: count(span, semconv.inputTokens) ?? 0,
        completionTokens: count(span, semconv.outputTokens) ?? 0,
        ...defined('cacheReadTokens', count(span, semconv.cacheReadInputTokens)),
        ...defined('cacheWriteTokens', count(span, semconv.cacheCreationInputTokens)),
        ...defined('reasoningTokens', count(span, semconv.reasoningOutputTokens)),
      },
      ...defined('responseId', text(span, semconv.responseId)),
      ...defined('responseModel', answeredBy),
      ...defined('firstChunkMs', firstChunkMsOf(span)),
      ...(span.error === undefined ? {} : { error: new Error(span.error) }),
    });
    agent.lastError = span.error === undefined ? undefined : new Error(span.error);
    for (const call of answer.toolCalls) agent.called.set(call.callId, call.toolName);
    if (span.error === undefined) this.#answer = answer.text;
    this.#children(node, { parent: agent.span ?? context.parent, agent });
  }

  #tool(node: SpanNode, context: Context): void {
    const { span } = node;
    const agent = context.agent;
    if (agent === undefined) return this.#plain(node, context);
    const tool = text(span, semconv.toolName) ?? span.name.replace(/^execute_tool\s*/, '');
    const callId = text(span, semconv.toolCallId) ?? span.spanId;
    this.#at(span.startMs, span.spanId);
    const server = text(span, ownAttributes.mcpServerName);
    const transport = text(span, ownAttributes.mcpServerTransport);
    const toolSpan = agent.toolStarted(
      callId,
      tool,
      parsedText(span.attributes[semconv.toolCallArguments]),
      between(context),
      {
        ...(server === undefined
          ? {}
          : { mcpServer: { name: server, transport: transport ?? 'stdio' } }),
        ...defined('description', text(span, semconv.toolDescription)),
      },
    );
    this.#children(node, { parent: toolSpan, caller: agent.agent });
    this.#at(span.endMs);
    agent.toolFailed.set(callId, span.error !== undefined);
    this.#toolFailed.set(`${tool}\n${callId}`, span.error !== undefined);
    agent.toolEnded(
      callId,
      span.error === undefined
        ? { output: parsedText(span.attributes[semconv.toolCallResult]) }
        : {
            error: Object.assign(new Error(span.error), {
              name: text(span, 'error.type') ?? 'Error',
            }),
          },
    );
  }

  #handoff(node: SpanNode, context: Context, to: string): void {
    const { span } = node;
    const from = context.agent?.agent ?? text(span, semconv.agentName) ?? '';
    const mode =
      text(span, ownAttributes.transferMode) === 'return_to_caller'
        ? 'return_to_caller'
        : 'pass_control';
    const fields = {
      from,
      to,
      depth: count(span, 'agent_trace.handoff.depth') ?? 1,
      mode,
    } as const;
    context.agent?.handedOff();
    if (context.agent !== undefined && mode === 'pass_control') context.agent.handedTo = to;
    this.#at(span.startMs, span.spanId);
    const handoff = this.tracer.start('handoff_start', from, context.parent, fields);
    this.#children(node, { parent: handoff, caller: from });
    this.#at(span.endMs);
    this.tracer.end(handoff, fields);
  }

  /**
   * A model call outside any agent span: the calls under one parent are an agent of their own,
   * named by the span's agent name or model, ended when that parent's children are done.
   */
  #implicitAgent(node: SpanNode, context: Context, provider: string, model: string): ImportedAgent {
    const known = this.#implicit.get(context.parent.spanId);
    if (known !== undefined) return known;
    const agent = new ImportedAgent(
      this.tracer,
      text(node.span, semconv.agentName) ?? model,
      context.parent,
      {
        prices: this.#prices,
        runTally: this.#tally,
      },
    );
    this.#at(node.span.startMs);
    // What the call's span says the model was told and offered: the agent's instructions and tools.
    const { span } = node;
    agent.startAgent(
      { provider, model },
      instructionsOf(json(span, semconv.systemInstructions)) ??
        messagesOf(json(span, semconv.inputMessages)).instructions.join('\n\n'),
      toolDefinitionsOf(json(span, semconv.toolDefinitions)),
    );
    this.#implicit.set(context.parent.spanId, agent);
    return agent;
  }

  /** The time of the events to come, and the id of the span the next start opens. */
  #at(ms: number, spanId?: string): void {
    this.#clock.at = ms;
    if (spanId === undefined) delete this.#ids.span;
    else this.#ids.span = spanId.padStart(16, '0');
  }
}

/**
 * A plain span's attributes: its own, less those agent-trace's export adds (the run id; the error
 * type, which is the error's).
 */
function plainAttributes(span: ForeignSpan): { attributes?: Record<string, unknown> } {
  const attributes = { ...span.attributes };
  delete attributes['agent_trace.run_id'];
  if (span.error !== undefined) delete attributes['error.type'];
  return Object.keys(attributes).length === 0 ? {} : { attributes };
}

/** The plain span between a call and its agent, when there is one. */
function between(context: Context): OpenSpan | undefined {
  const agentSpan = context.agent?.span;
  return agentSpan === undefined || context.parent.spanId === agentSpan.spanId
    ? undefined
    : context.parent;
}

/** A span's stop: agent-trace's own attribute, else its status. */
function stopOf(span: ForeignSpan): StopReason {
  const own = text(span, 'agent_trace.stop_reason');
  if (own !== undefined) return own as StopReason;
  return span.error === undefined ? 'completed' : 'error';
}

/** An attribute that may hold JSON text, as its value. */
function parsedText(value: unknown): unknown {
  return typeof value === 'string' ? jsonOrText(value) : value;
}
