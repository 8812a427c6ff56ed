import type { StopReason } from '@agent-trace/core';
import {
  BridgedRuns,
  jsonOrText,
  type BridgeRecordingOptions,
  bridgedRunTally,
} from '@agent-trace/core/record';
import { AsyncLocalStorage } from 'node:async_hooks';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import type { BaseMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import type { Serialized } from '@langchain/core/load/serializable';
import type { ChainValues } from '@langchain/core/utils/types';
import { textOf } from '../messages.js';
import type { AnswerFields, GraphAgent, ModelStart } from './graph-agent.js';
import { GraphScope } from './graph-scope.js';

/** Options of {@link agentTraceCallbacks}: where runs go and how they are written. */
export type AgentTraceCallbacksOptions = BridgeRecordingOptions;

/** What the handler knows of a LangChain run (a chain, a model call, a tool call). */
interface Known {
  readonly scope: GraphScope;
  /** Set on the run a graph's invocation is: it ends the scope. */
  readonly graph?: true;
  readonly model?: { readonly agent: GraphAgent; readonly start: ModelStart };
  readonly tool?: { readonly agent: GraphAgent; readonly callId: string };
}

/**
 * The LangChain callback handler that records LangGraph graphs (and LangChain agents) as
 * agent-trace traces. Pass it in the invocation's `callbacks`: each top-level invocation is a run;
 * each node that calls a chat model is an agent (the prebuilt ReAct agent's model node takes the
 * graph's name), with its model calls and the tool calls its answers asked for; a graph invoked
 * from a tool is a sub-agent under that tool call.
 */
export class AgentTraceCallbackHandler extends BaseCallbackHandler {
  name = 'agent-trace';
  /** Run inline, in order: the trace is written as the graph runs. */
  override awaitHandlers = true;
  readonly #runs = new Map<string, Known>();
  readonly #recorded: BridgedRuns;

  constructor(options: AgentTraceCallbacksOptions) {
    super();
    this.#recorded = new BridgedRuns(options);
    // A graph invoked inside a tool or a node hands its runs to this handler only through
    // LangChain's async-local storage, which `@langchain/langgraph`'s main entry sets up and
    // `@langchain/langgraph/prebuilt` alone does not: without it, a sub-agent is not recorded.
    AsyncLocalStorageProviderSingleton.initializeGlobalInstance(new AsyncLocalStorage());
  }

  /**
   * LangChain's callback manager calls this with the parent run's id fourth and the run's name
   * eighth (as its own tracers read them), whatever the interface's parameter names say.
   */
  override handleChainStart(
    _chain: Serialized,
    inputs: ChainValues,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): void {
    const parent = parentRunId === undefined ? undefined : this.#runs.get(parentRunId);
    if (parent !== undefined && parent.tool === undefined) {
      this.#runs.set(runId, { scope: parent.scope });
      return;
    }
    const name = runName ?? 'langgraph';
    const scope =
      parent?.tool === undefined
        ? this.#newRun(name, inputOf(inputs))
        : new GraphScope(
            parent.scope.tracer,
            name,
            {
              kind: 'tool',
              caller: parent.tool.agent,
              tool: parent.tool.agent.toolSpan(parent.tool.callId)!,
              callId: parent.tool.callId,
            },
            { prices: this.#recorded.prices, runTally: parent.scope.runTally },
          );
    this.#runs.set(runId, { scope, graph: true });
  }

  override handleChainEnd(outputs: ChainValues, runId: string): void {
    const known = this.#runs.get(runId);
    this.#runs.delete(runId);
    if (known?.graph !== true) return;
    this.#ended(known.scope, 'completed', outputOf(outputs));
  }

  override handleChainError(error: unknown, runId: string): void {
    const known = this.#runs.get(runId);
    this.#runs.delete(runId);
    if (known?.graph !== true) return;
    this.#ended(known.scope, stopReasonOf(error), undefined, error);
  }

  override handleChatModelStart(
    llm: Serialized,
    messages: BaseMessage[][],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
  ): void {
    const parent = parentRunId === undefined ? undefined : this.#runs.get(parentRunId);
    const scope = parent?.scope ?? this.#newRun(runName ?? 'langchain', '');
    const node = metadata?.langgraph_node;
    const agentName =
      typeof node !== 'string' || node === 'agent' || node === 'model' ? scope.name : node;
    const agent = scope.agent(agentName);
    const params = (extraParams?.invocation_params ?? {}) as Record<string, unknown>;
    const start: ModelStart = {
      provider: stringOr(metadata?.ls_provider, 'langchain'),
      model: stringOr(metadata?.ls_model_name, stringOr(params.model, llm.id.at(-1) ?? '')),
      tools: params.tools,
    };
    agent.called(start, messages[0] ?? []);
    this.#runs.set(runId, {
      scope,
      model: { agent, start },
      ...(parent === undefined ? { graph: true } : {}),
    });
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    const known = this.#runs.get(runId);
    this.#runs.delete(runId);
    const generation = output.generations[0]?.[0] as
      { message?: AnswerFields; text?: string } | undefined;
    known?.model?.agent.answered(
      known.model.start,
      generation?.message ?? { content: generation?.text ?? '' },
    );
    if (known?.graph === true) this.#ended(known.scope, 'completed', undefined);
  }

  override handleLLMError(error: unknown, runId: string): void {
    const known = this.#runs.get(runId);
    this.#runs.delete(runId);
    known?.model?.agent.answered(known.model.start, undefined, error);
    if (known?.graph === true) this.#ended(known.scope, stopReasonOf(error), undefined, error);
  }

  override handleToolStart(
    tool: Serialized,
    input: string,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    runName?: string,
    toolCallId?: string,
  ): void {
    const scope = parentRunId === undefined ? undefined : this.#runs.get(parentRunId)?.scope;
    const agent = scope?.agentOfCall(toolCallId);
    if (scope === undefined || agent === undefined) return;
    const name = runName ?? tool.id.at(-1) ?? 'tool';
    const callId = toolCallId ?? `${name}-${agent.steps}`;
    const asked = agent.pending.get(callId);
    agent.pending.delete(callId);
    agent.toolStarted(callId, name, asked?.args ?? jsonOrText(input));
    this.#runs.set(runId, { scope, tool: { agent, callId } });
  }

  override handleToolEnd(output: unknown, runId: string): void {
    const known = this.#runs.get(runId);
    this.#runs.delete(runId);
    if (known?.tool === undefined) return;
    const { content, status } = (output ?? {}) as { content?: unknown; status?: string };
    const text = typeof output === 'string' ? output : textOf(content);
    known.tool.agent.toolEnded(
      known.tool.callId,
      status === 'error' ? { error: new Error(text) } : { output: jsonOrText(text) },
    );
  }

  override handleToolError(error: unknown, runId: string): void {
    const known = this.#runs.get(runId);
    this.#runs.delete(runId);
    known?.tool?.agent.toolEnded(known.tool.callId, { error });
  }

  /** Waits until every sink has stored what the runs gave it. */
  flush(): Promise<void> {
    return this.#recorded.flush();
  }

  #newRun(name: string, input: string): GraphScope {
    const tracer = this.#recorded.open(name);
    const runSpan = this.#recorded.startRun(tracer, name, input);
    return new GraphScope(
      tracer,
      name,
      { kind: 'run', runSpan },
      { prices: this.#recorded.prices, runTally: bridgedRunTally() },
    );
  }

  #ended(
    scope: GraphScope,
    stopReason: StopReason,
    output: string | undefined,
    error?: unknown,
  ): void {
    scope.ended(stopReason, output, error);
    if (scope.isRun) this.#recorded.closed(scope.tracer);
  }
}

/**
 * Records LangGraph graphs and LangChain agents as agent-trace traces, through LangChain's own
 * callback handler interface.
 *
 * @example
 * ```ts
 * const callbacks = agentTraceCallbacks({ trace: jsonlSink('traces/agent.jsonl') });
 * await agent.invoke({ messages: [{ role: 'user', content: 'How cold is Oslo?' }] }, { callbacks: [callbacks] });
 * await callbacks.flush();
 * ```
 */
export function agentTraceCallbacks(
  options: AgentTraceCallbacksOptions,
): AgentTraceCallbackHandler {
  return new AgentTraceCallbackHandler(options);
}

/** A graph's input: its last user message, or the input as JSON. */
function inputOf(inputs: ChainValues): string {
  const messages = (inputs as { messages?: unknown }).messages;
  if (Array.isArray(messages)) {
    for (const message of [...(messages as unknown[])].reverse()) {
      const { role, type, content } = message as {
        role?: string;
        type?: string;
        content?: unknown;
      };
      const kind = role ?? type ?? (message as { getType?: () => string }).getType?.();
      if (kind === 'user' || kind === 'human') return textOf(content);
    }
  }
  return typeof inputs === 'string' ? inputs : JSON.stringify(inputs);
}

/** A graph's output: its last AI message's text, when its state holds messages. */
function outputOf(outputs: ChainValues): string | undefined {
  const messages = (outputs as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  return textOf((messages.at(-1) as { content?: unknown }).content);
}

/** LangGraph's recursion limit is its step limit; an abort is an abort. */
function stopReasonOf(error: unknown): StopReason {
  const name = error instanceof Error ? error.name : '';
  if (name === 'GraphRecursionError') return 'max_steps';
  if (name === 'AbortError') return 'aborted';
  return 'error';
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}
