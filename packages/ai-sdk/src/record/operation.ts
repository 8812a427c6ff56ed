import type { FinishReason, ToolDefinition, TraceError } from '@agent-trace/core';
import {
  countedUsage,
  defined,
  hashString,
  toTraceMessage,
  type OpenSpan,
  type RunTracer,
} from '@agent-trace/core/internal';
import { costOf, type PriceTable } from '@agent-trace/core/cost';
import { finishReasons } from '../ai-sdk-model.js';
import { fromPrompt, type PromptMessage } from '../prompt-messages.js';
import type { OperationEnding } from './recorder.js';

/** What an AI SDK model call says of itself at its start, as the recorder reads it. */
export interface ModelCallStart {
  readonly provider: string;
  readonly modelId: string;
  readonly instructions?: unknown;
  readonly messages: readonly unknown[];
  readonly tools?: ReadonlyArray<Record<string, unknown>>;
}

/** What it says at its end. */
export interface ModelCallEnd {
  readonly provider: string;
  readonly modelId: string;
  readonly finishReason: string;
  readonly usage: {
    readonly inputTokens?: number;
    readonly outputTokens?: number;
    readonly inputTokenDetails?: {
      readonly cacheReadTokens?: number;
      readonly cacheWriteTokens?: number;
    };
  };
  readonly content: ReadonlyArray<{
    readonly type: string;
    readonly text?: string;
    readonly toolCallId?: string;
    readonly toolName?: string;
    readonly input?: unknown;
  }>;
}

/** The AI SDK's finish reasons as agent-trace's: the inverse of the model's map; any other is `other`. */
const finishReasonOf = new Map<string, FinishReason>(
  Object.entries(finishReasons).map(([ours, theirs]) => [theirs, ours as FinishReason]),
);

/**
 * One AI SDK operation (a `generateText` or `streamText` call) as an agent of an agent-trace run:
 * the run's own agent, or a sub-agent called from a tool of another operation, whose span it hangs
 * under. It keeps what the trace needs between the AI SDK's callbacks.
 */
export class RecordedOperation {
  #agentSpan: OpenSpan<'agent_start'> | undefined;
  #llm: OpenSpan<'llm_start'> | undefined;
  readonly #tools = new Map<
    string,
    { span: OpenSpan<'tool_start'>; tool: string; args: unknown }
  >();
  #model = { model: '', provider: '' };
  #step = 0;
  /** The AI SDK messages seen so far, how many agent-trace messages they made, and their hash. */
  readonly #conversation = { seen: 0, count: 0, hash: hashString('') };
  #toolCalls = 0;
  #tokensIn = 0;
  #tokensOut = 0;

  /** Set on the run's own agent: the run's span, ended with it. */
  readonly runSpan: OpenSpan<'run_start'> | undefined;
  /** The tokens of every agent of the run, which its seal counts. */
  readonly runTokens: { prompt: number; completion: number };
  /** Prices the model calls; a model it has no price for has an unknown cost. */
  readonly #prices: PriceTable;

  constructor(
    readonly tracer: RunTracer,
    readonly agent: string,
    /** The tool span of the operation this one was called from; null for the run's own agent. */
    private readonly parent: OpenSpan | null,
    run: {
      readonly prices: PriceTable;
      readonly runSpan?: OpenSpan<'run_start'>;
      readonly runTokens?: { prompt: number; completion: number };
    },
  ) {
    this.runSpan = run.runSpan;
    this.runTokens = run.runTokens ?? { prompt: 0, completion: 0 };
    this.#prices = run.prices;
  }

  /** The span of a tool call running now: where an operation it calls hangs. */
  toolSpan(toolCallId: string): OpenSpan<'tool_start'> | undefined {
    return this.#tools.get(toolCallId)?.span;
  }

  /** A model call starts: the agent's start first (its tools known from the first call), then the call. */
  modelCallStarted(call: ModelCallStart): void {
    const { instructions } = fromPrompt(systemMessages(call.instructions));
    const tools: ToolDefinition[] = (call.tools ?? []).flatMap(tool =>
      tool.type === 'function' || tool.type === undefined
        ? [
            {
              name: String(tool.name),
              description: typeof tool.description === 'string' ? tool.description : '',
              inputSchema: (tool.inputSchema ?? {}) as Readonly<Record<string, unknown>>,
            },
          ]
        : [],
    );
    const agentSpan = this.#startAgent(call, instructions, tools);
    // The conversation only grows between an agent's calls: only what is new is converted and
    // hashed (folded into a rolling hash), so a long run costs each message once.
    const fresh = fromPrompt(call.messages.slice(this.#conversation.seen) as PromptMessage[]);
    this.#conversation.seen = call.messages.length;
    for (const message of fresh.messages)
      this.#conversation.hash = hashString(
        `${this.#conversation.hash}\n${JSON.stringify(message)}`,
      );
    this.#conversation.count += fresh.messages.length;
    const messagesHash = this.#conversation.hash;
    const toolsText = JSON.stringify(tools);
    this.#model = { model: call.modelId, provider: call.provider };
    this.#llm = this.tracer.start('llm_start', this.agent, agentSpan, {
      model: call.modelId,
      provider: call.provider,
      step: ++this.#step,
      messages: fresh.messages.map(toTraceMessage),
      message_count: this.#conversation.count,
      request_hash: hashString(
        `${hashString(`[${JSON.stringify(instructions)},${toolsText}]`)}\n${messagesHash}`,
      ),
      request_parts: {
        instructions: hashString(instructions),
        tools: hashString(toolsText),
        messages: messagesHash,
      },
    });
  }

  /** A model call ends: its answer, finish reason and tokens. */
  modelCallEnded(call: ModelCallEnd): void {
    const span = this.#llm;
    if (span === undefined) return;
    this.#llm = undefined;
    const usage = countedUsage({
      promptTokens: call.usage.inputTokens ?? 0,
      completionTokens: call.usage.outputTokens ?? 0,
      ...defined('cacheReadTokens', call.usage.inputTokenDetails?.cacheReadTokens),
      ...defined('cacheWriteTokens', call.usage.inputTokenDetails?.cacheWriteTokens),
    });
    this.#tokensIn += usage.promptTokens;
    this.#tokensOut += usage.completionTokens;
    this.runTokens.prompt += usage.promptTokens;
    this.runTokens.completion += usage.completionTokens;
    const priced = this.#prices.priceOf(call.provider, call.modelId);
    this.tracer.end(span, {
      model: call.modelId,
      provider: call.provider,
      step: this.#step,
      text: call.content.flatMap(part => (part.type === 'text' ? [part.text ?? ''] : [])).join(''),
      tool_calls: call.content
        .filter(part => part.type === 'tool-call')
        .map(part => ({
          call_id: part.toolCallId ?? '',
          tool: part.toolName ?? '',
          arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input),
        })),
      finish_reason: finishReasonOf.get(call.finishReason) ?? 'other',
      tok_prompt: usage.promptTokens,
      tok_completion: usage.completionTokens,
      ...defined('tok_cache_read', usage.cacheReadTokens),
      ...defined('tok_cache_write', usage.cacheWriteTokens),
      ...(priced === undefined ? {} : { cost_usd: costOf(usage, priced.price) }),
    });
  }

  /** A tool starts running. */
  toolStarted(toolCallId: string, toolName: string, input: unknown): void {
    const agentSpan = this.#agentSpan;
    if (agentSpan === undefined) return;
    this.#toolCalls++;
    const span = this.tracer.start('tool_start', this.agent, agentSpan, {
      tool: toolName,
      call_id: toolCallId,
      args: input,
    });
    this.#tools.set(toolCallId, { span, tool: toolName, args: input });
  }

  /** A tool ends, with its output or its error. */
  toolEnded(
    toolCallId: string,
    outcome: { readonly output: unknown } | { readonly error: unknown },
  ): void {
    const running = this.#tools.get(toolCallId);
    if (running === undefined) return;
    this.#tools.delete(toolCallId);
    const { span, tool, args } = running;
    this.tracer.end(span, {
      tool,
      call_id: toolCallId,
      args,
      attempt: 1,
      ...('error' in outcome ? { error: traceError(outcome.error) } : { result: outcome.output }),
    });
  }

  /**
   * The operation ends: open calls end with the error (or as stopped), then the agent, then (for
   * the run's own agent) the run with its seal.
   */
  ended(ending: OperationEnding): void {
    const error = ending.error === undefined ? undefined : traceError(ending.error);
    const stopped: TraceError = error ?? { type: 'aborted', message: 'the operation ended first' };
    if (this.#llm !== undefined)
      this.tracer.end(this.#llm, {
        ...this.#model,
        step: this.#step,
        tok_prompt: 0,
        tok_completion: 0,
        error: stopped,
      });
    for (const id of [...this.#tools.keys()]) this.toolEnded(id, { error: stopped });
    const agentSpan = this.#agentSpan ?? this.#startAgent({ provider: '', modelId: '' }, '', []);
    this.tracer.end(agentSpan, {
      stop_reason: ending.stopReason,
      steps: this.#step,
      tool_calls: this.#toolCalls,
      tok_prompt: this.#tokensIn,
      tok_completion: this.#tokensOut,
      output: ending.output,
      ...defined('error', error),
    });
    if (this.runSpan === undefined) return;
    this.tracer.end(this.runSpan, {
      stop_reason: ending.stopReason,
      last_seq: this.tracer.nextSeq,
      counts: { events: this.tracer.nextSeq + 1, ...this.tracer.counts },
      tok_prompt: this.runTokens.prompt,
      tok_completion: this.runTokens.completion,
      output: ending.output,
      ...defined('error', error),
      ...(this.tracer.redactions === 0 ? {} : { redactions: this.tracer.redactions }),
    });
  }

  #startAgent(
    call: Pick<ModelCallStart, 'provider' | 'modelId'>,
    instructions: string,
    tools: readonly ToolDefinition[],
  ): OpenSpan<'agent_start'> {
    this.#agentSpan ??= this.tracer.start(
      'agent_start',
      this.agent,
      this.parent ?? this.runSpan ?? null,
      {
        model: call.modelId,
        provider: call.provider,
        instructions,
        tools: tools.map(tool => tool.name),
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

/** The AI SDK's instructions (text, a system message, or several) as system messages. */
function systemMessages(instructions: unknown): PromptMessage[] {
  if (instructions === undefined || instructions === null) return [];
  if (typeof instructions === 'string') return [{ role: 'system', content: instructions }];
  const list = Array.isArray(instructions) ? instructions : [instructions];
  return list.map(each => {
    const { content } = each as { content?: unknown };
    return { role: 'system', content: typeof content === 'string' ? content : '' };
  });
}

/** An error as the trace records it: its name and message. */
export function traceError(error: unknown): TraceError {
  return error instanceof Error
    ? { type: error.name === 'Error' ? 'error' : error.name, message: error.message }
    : { type: 'error', message: String(error) };
}
