import type { FinishReason } from '../../kernel/protocol/finish-reason.js';
import { toTraceReasoning, type ReasoningPart } from '../../kernel/protocol/reasoning.js';
import {
  hashedMessageJson,
  hashedMessagesJson,
  type Message,
} from '../../kernel/protocol/message.js';
import type { StopReason } from '../../kernel/protocol/stop-reason.js';
import type { TraceError } from '../../kernel/protocol/trace-envelope.js';
import type { ToolDefinition } from '../../kernel/model/language-model.js';
import { countedUsage } from '../../kernel/protocol/usage.js';
import {
  costSummary,
  countCost,
  emptyTally,
  type CostTally,
} from '../../kernel/protocol/cost-tally.js';
import { toTraceMessage } from '../../kernel/protocol/trace-message.js';
import type { OpenSpan, RunTracer, TraceEventFields } from '../../kernel/trace/run-tracer.js';
import { defined } from '../../kernel/util/defined.js';
import { hashString } from '../../kernel/util/hash.js';
import { costOf } from '../cost/cost-of.js';
import type { PriceTable } from '../cost/prices.js';

/** A request's instructions and tools as text, and their hashes: what the rerun compares. */
interface RequestHead {
  readonly instructionsText: string;
  readonly toolsText: string;
  readonly instructions: string;
  readonly tools: string;
  /** Of both together. */
  readonly hash: string;
}

/** A model call of another framework's agent at its start, in agent-trace's terms. */
export interface BridgedCallStart {
  readonly provider: string;
  readonly model: string;
  readonly instructions: string;
  readonly tools: readonly ToolDefinition[];
  /** The messages new since the agent's previous call: the conversation only grows. */
  readonly messages: readonly Message[];
  /**
   * Set when the request held only the newest messages of the conversation (a memory window):
   * the messages it held, the new ones last. The request is hashed over them, as a run's is.
   */
  readonly window?: readonly Message[];
  /** The span it hangs under, when one stands between it and the agent's; else the agent's. */
  readonly parent?: OpenSpan;
  /** The model's settings (temperature, output token limit, …), when the framework says. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Set when the call was streamed. */
  readonly stream?: boolean;
  /** The host and port the request went to. */
  readonly server?: { readonly address: string; readonly port: number };
}

/** Its end: the answer, why it stopped and what it used. */
export interface BridgedCallEnd {
  readonly provider: string;
  readonly model: string;
  readonly text: string;
  readonly toolCalls: ReadonlyArray<{
    readonly callId: string;
    readonly toolName: string;
    readonly argumentsText: string;
  }>;
  /** What the model thought before it answered, when the framework gives it. */
  readonly reasoning?: readonly ReasoningPart[];
  readonly finishReason: FinishReason;
  readonly usage: {
    readonly promptTokens: number;
    readonly completionTokens: number;
    readonly cacheReadTokens?: number;
    readonly cacheWriteTokens?: number;
    readonly reasoningTokens?: number;
  };
  readonly error?: unknown;
  /** The provider's id of the answer, and the model it says answered, when the framework gives them. */
  readonly responseId?: string;
  readonly responseModel?: string;
  /** A streamed call: milliseconds from the request to its first chunk. */
  readonly firstChunkMs?: number;
}

/** How an agent of another framework ended, as its `agent_end` (and its run's seal) record it. */
export interface BridgedEnding {
  readonly stopReason: StopReason;
  readonly output: string;
  readonly error?: unknown;
  /** The agent it handed the conversation to. */
  readonly handedOffTo?: string;
}

/** What the agents of a bridged run add up to, for its seal: tokens and cost. */
export interface BridgedRunTally {
  prompt: number;
  completion: number;
  readonly cost: CostTally;
}

/** A run's tally of nothing yet. */
export function bridgedRunTally(): BridgedRunTally {
  return { prompt: 0, completion: 0, cost: emptyTally() };
}

/** What an agent's start says of it beyond its first model call. */
export interface BridgedAgentStart {
  readonly handoffs?: readonly string[];
  readonly path?: readonly string[];
  /** What the agent is for, when the framework says. */
  readonly description?: string;
  /** The agent's version, when the framework says. */
  readonly version?: string;
  /**
   * The agent's memory window (how many recent messages each request holds), when it has one:
   * each of its calls then gives its `window`, and is hashed over it.
   */
  readonly memoryWindow?: number;
}

/**
 * One agent of another framework (an AI SDK call, an Agents SDK agent, a LangGraph graph) as an
 * agent of an agent-trace run, fed by that framework's hook. It keeps what the trace needs between
 * the hook's callbacks: the open spans, the conversation's rolling hash, the agent's counts.
 * The run's own agent also holds the run's span, which its end seals.
 */
export class RecordedAgent {
  #agentSpan: OpenSpan<'agent_start'> | undefined;
  #llm: OpenSpan<'llm_start'> | undefined;
  readonly #tools = new Map<
    string,
    { span: OpenSpan<'tool_start'>; tool: string; args: unknown }
  >();
  #model = { model: '', provider: '' };
  #step = 0;
  /** How many messages the conversation holds, and their rolling hash. */
  readonly #conversation = { count: 0, hash: hashString('') };
  /** The hashes of the previous call's instructions and tools. */
  #head: RequestHead | undefined;
  #toolCalls = 0;
  #tokensIn = 0;
  #tokensOut = 0;
  readonly #cost = emptyTally();

  /** Set on the run's own agent: the run's span, ended with it. */
  #runSpan: OpenSpan<'run_start'> | undefined;
  /** The tokens of every agent of the run, which its seal counts. */
  readonly runTally: BridgedRunTally;
  readonly #prices: PriceTable;
  readonly #start: BridgedAgentStart;
  /** The text of its last answer: its output, when its framework does not say. */
  lastText = '';

  constructor(
    readonly tracer: RunTracer,
    readonly agent: string,
    /** The span it hangs under (a tool call, a handoff); null for the run's own agent. */
    private readonly parent: OpenSpan | null,
    run: {
      readonly prices: PriceTable;
      readonly runSpan?: OpenSpan<'run_start'>;
      readonly runTally?: BridgedRunTally;
      readonly start?: BridgedAgentStart;
    },
  ) {
    this.#runSpan = run.runSpan;
    this.runTally = run.runTally ?? bridgedRunTally();
    this.#prices = run.prices;
    this.#start = run.start ?? {};
  }

  /** The run's span, on the run's own agent. */
  get runSpan(): OpenSpan<'run_start'> | undefined {
    return this.#runSpan;
  }

  /**
   * Makes this the run's own agent, for a framework whose run's input is known only later than
   * the agent (its first model call): it hangs under the run's span and its end seals the run.
   */
  sealsRun(runSpan: OpenSpan<'run_start'>): void {
    if (this.#agentSpan !== undefined) throw new Error('the agent has started already');
    this.#runSpan = runSpan;
  }

  /** The agent's span, once it has started. */
  get span(): OpenSpan<'agent_start'> | undefined {
    return this.#agentSpan;
  }

  /** Model calls made so far. */
  get steps(): number {
    return this.#step;
  }

  /** The span of a tool call running now: where an agent it calls hangs. */
  toolSpan(callId: string): OpenSpan<'tool_start'> | undefined {
    return this.#tools.get(callId)?.span;
  }

  /** A model call starts: the agent's start first (its tools known from the first call), then the call. */
  modelCallStarted(call: BridgedCallStart): void {
    const agentSpan = this.startAgent(call, call.instructions, call.tools);
    for (const message of call.messages)
      this.#conversation.hash = hashString(
        `${this.#conversation.hash}\n${hashedMessageJson(message)}`,
      );
    this.#conversation.count += call.messages.length;
    const head = this.#requestHead(call.instructions, JSON.stringify(call.tools));
    // A windowed request is hashed whole (bounded by the window), as the loop hashes one.
    const windowText = call.window === undefined ? undefined : hashedMessagesJson(call.window);
    const messagesHash =
      windowText === undefined ? this.#conversation.hash : hashString(windowText);
    const requestHash = hashString(`${head.hash}\n${windowText ?? messagesHash}`);
    this.#model = { model: call.model, provider: call.provider };
    const fields: TraceEventFields<'llm_start'> = {
      model: call.model,
      provider: call.provider,
      step: ++this.#step,
      messages: call.messages.map(toTraceMessage),
      message_count: call.window?.length ?? this.#conversation.count,
      request_hash: requestHash,
      request_parts: { instructions: head.instructions, tools: head.tools, messages: messagesHash },
    };
    if (call.settings !== undefined && Object.keys(call.settings).length > 0)
      fields.model_settings = { ...call.settings };
    if (call.stream === true) fields.stream = true;
    if (call.server !== undefined) fields.server = call.server;
    this.#llm = this.tracer.start('llm_start', this.agent, call.parent ?? agentSpan, fields);
  }

  /**
   * The hashes of a request's instructions and tools, and of both: worked out again only when
   * either changed since the agent's previous call (an agent's tools rarely change between steps).
   */
  #requestHead(instructions: string, toolsText: string): RequestHead {
    const last = this.#head;
    if (last?.instructionsText === instructions && last.toolsText === toolsText) return last;
    this.#head = {
      instructionsText: instructions,
      toolsText,
      instructions: hashString(instructions),
      tools: hashString(toolsText),
      hash: hashString(`[${JSON.stringify(instructions)},${toolsText}]`),
    };
    return this.#head;
  }

  /** A model call ends: its answer, finish reason and tokens, or its error. */
  modelCallEnded(call: BridgedCallEnd): void {
    const span = this.#llm;
    if (span === undefined) return;
    this.#llm = undefined;
    const usage = countedUsage({
      promptTokens: call.usage.promptTokens,
      completionTokens: call.usage.completionTokens,
      ...defined('cacheReadTokens', call.usage.cacheReadTokens),
      ...defined('cacheWriteTokens', call.usage.cacheWriteTokens),
      ...defined('reasoningTokens', call.usage.reasoningTokens),
    });
    this.#tokensIn += usage.promptTokens;
    this.#tokensOut += usage.completionTokens;
    this.runTally.prompt += usage.promptTokens;
    this.runTally.completion += usage.completionTokens;
    const priced = this.#prices.priceOf(call.provider, call.model);
    const cost = priced === undefined ? undefined : costOf(usage, priced.price);
    // What its tokens cost, failed or not: the run's cost is its calls' (a failed call that says
    // it used tokens was billed for them).
    countCost([this.#cost, this.runTally.cost], cost, `${call.provider}/${call.model}`);
    const fields: Omit<TraceEventFields<'llm_end'>, 'duration_ms'> = {
      model: call.model,
      provider: call.provider,
      step: this.#step,
      text: call.text,
      tool_calls: call.toolCalls.map(each => ({
        call_id: each.callId,
        tool: each.toolName,
        arguments: each.argumentsText,
      })),
      finish_reason: call.finishReason,
      tok_prompt: usage.promptTokens,
      tok_completion: usage.completionTokens,
    };
    if (call.reasoning !== undefined && call.reasoning.length > 0)
      fields.reasoning = toTraceReasoning(call.reasoning);
    // Field by field, in the order written: this runs once a model call.
    if (usage.cacheReadTokens !== undefined) fields.tok_cache_read = usage.cacheReadTokens;
    if (usage.cacheWriteTokens !== undefined) fields.tok_cache_write = usage.cacheWriteTokens;
    if (usage.reasoningTokens !== undefined) fields.tok_reasoning = usage.reasoningTokens;
    if (cost !== undefined) fields.cost_usd = cost;
    if (call.responseId !== undefined) fields.response_id = call.responseId;
    if (call.responseModel !== undefined) fields.response_model = call.responseModel;
    if (call.firstChunkMs !== undefined) fields.first_chunk_ms = call.firstChunkMs;
    if (call.error !== undefined) fields.error = traceError(call.error);
    this.tracer.end(span, fields);
    if (call.error === undefined) this.lastText = call.text;
  }

  /**
   * A tool starts running, under the agent's span or under `parent` (a span that stands between
   * them).
   */
  toolStarted(
    callId: string,
    toolName: string,
    input: unknown,
    parent?: OpenSpan,
    about: {
      /** The MCP server the tool came from, for an MCP tool. */
      readonly mcpServer?: { readonly name: string; readonly transport: string };
      /** The tool's description, when the agent's tool definitions do not give it. */
      readonly description?: string;
    } = {},
  ): OpenSpan<'tool_start'> {
    const { mcpServer, description } = about;
    const agentSpan = this.startAgent(this.#model, '', []);
    this.#toolCalls++;
    const span = this.tracer.start('tool_start', this.agent, parent ?? agentSpan, {
      tool: toolName,
      call_id: callId,
      args: input,
      ...(mcpServer === undefined
        ? {}
        : { mcp_server: { name: mcpServer.name, transport: mcpServer.transport } }),
      ...defined('description', description),
    });
    this.#tools.set(callId, { span, tool: toolName, args: input });
    return span;
  }

  /** A tool ends, with its output or its error. */
  toolEnded(
    callId: string,
    outcome: { readonly output: unknown } | { readonly error: unknown },
  ): void {
    const running = this.#tools.get(callId);
    if (running === undefined) return;
    this.#tools.delete(callId);
    const { span, tool, args } = running;
    this.tracer.end(span, {
      tool,
      call_id: callId,
      args,
      attempt: 1,
      ...('error' in outcome ? { error: traceError(outcome.error) } : { result: outcome.output }),
    });
  }

  /** A handoff that is not a tool call of its own: counted as the agent's tool call. */
  handedOff(): void {
    this.#toolCalls++;
  }

  /**
   * The agent ends: open calls end with the error (or as stopped), then the agent, then (for the
   * run's own agent) the run with its seal.
   */
  ended(ending: BridgedEnding): void {
    const error = ending.error === undefined ? undefined : traceError(ending.error);
    const stopped: TraceError = error ?? { type: 'aborted', message: 'the agent ended first' };
    if (this.#llm !== undefined)
      this.tracer.end(this.#llm, {
        ...this.#model,
        step: this.#step,
        tok_prompt: 0,
        tok_completion: 0,
        error: stopped,
      });
    for (const id of [...this.#tools.keys()]) this.toolEnded(id, { error: stopped });
    const agentSpan = this.startAgent({ provider: '', model: '' }, '', []);
    this.tracer.end(agentSpan, {
      stop_reason: ending.stopReason,
      steps: this.#step,
      tool_calls: this.#toolCalls,
      tok_prompt: this.#tokensIn,
      tok_completion: this.#tokensOut,
      output: ending.output,
      ...defined('handed_off_to', ending.handedOffTo),
      ...defined('error', error),
      ...(this.#cost.usd === 0 && this.#cost.unpricedCalls === 0
        ? {}
        : { cost: costSummary(this.#cost) }),
    });
    if (this.#runSpan !== undefined)
      sealRun(this.tracer, this.#runSpan, { ...ending, tally: this.runTally });
  }

  /** Starts the agent's span once: at its first model call, tool call or end. */
  startAgent(
    call: { readonly provider: string; readonly model: string },
    instructions: string,
    tools: readonly ToolDefinition[],
  ): OpenSpan<'agent_start'> {
    this.#agentSpan ??= this.tracer.start(
      'agent_start',
      this.agent,
      this.parent ?? this.#runSpan ?? null,
      {
        model: call.model,
        provider: call.provider,
        instructions,
        ...(this.#start.description === undefined || this.#start.description === ''
          ? {}
          : { description: this.#start.description }),
        ...defined('version', this.#start.version),
        ...defined('memory_window', this.#start.memoryWindow),
        tools: tools.map(tool => tool.name),
        ...(this.#start.handoffs === undefined || this.#start.handoffs.length === 0
          ? {}
          : { handoffs: [...this.#start.handoffs] }),
        ...(this.#start.path === undefined ? {} : { path: [...this.#start.path] }),
        tool_definitions: tools.map(({ name, description, inputSchema }) => ({
          name,
          description,
          parameters: inputSchema,
        })),
      },
    );
    return this.#agentSpan;
  }
}

/**
 * Ends a bridged run: its `run_end`, with the seal (the last seq and the counts), the run's
 * tokens, its stop and output. For a framework whose run holds several agents side by side.
 */
export function sealRun(
  tracer: RunTracer,
  runSpan: OpenSpan<'run_start'>,
  ending: BridgedEnding & { readonly tally: BridgedRunTally },
): void {
  const error = ending.error === undefined ? undefined : traceError(ending.error);
  tracer.end(runSpan, {
    stop_reason: ending.stopReason,
    last_seq: tracer.nextSeq,
    counts: { events: tracer.nextSeq + 1, ...tracer.counts },
    tok_prompt: ending.tally.prompt,
    tok_completion: ending.tally.completion,
    output: ending.output,
    ...defined('error', error),
    ...(tracer.redactions === 0 ? {} : { redactions: tracer.redactions }),
    ...(tracer.counts.llm_calls === 0 ? {} : { cost: costSummary(ending.tally.cost) }),
  });
}

/** An error as the trace records it: its name and message. */
export function traceError(error: unknown): TraceError {
  return error instanceof Error
    ? { type: error.name === 'Error' ? 'error' : error.name, message: error.message }
    : { type: 'error', message: String(error) };
}
