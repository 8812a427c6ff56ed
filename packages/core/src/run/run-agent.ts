import type { AnyAgent } from '../agent/agent.js';
import { RunAbortedError } from '../errors/abort-error.js';
import { RunTimeoutError } from '../errors/run-timeout-error.js';
import type { ModelRequest, ToolDefinition } from '../model/language-model.js';
import { addUsage, zeroUsage } from '../protocol/usage.js';
import type { StopLimit } from '../protocol/stop-reason.js';
import type { OpenSpan } from '../trace/run-tracer.js';
import { throwIfAborted } from '../util/abort.js';
import { hashString } from '../util/hash.js';
import type { Writable } from '../util/writable.js';
import type { Usage } from '../protocol/usage.js';
import { runGuardrails } from '../guardrail/run-guardrails.js';
import { z } from 'zod';
import { recentMessages, windowedMessages } from '../memory/recent-messages.js';
import { callModel } from './call-model.js';
import { decodeOutput, decodeRetryRequest, finalOutputRequest } from './decode-output.js';
import type { Chunk } from '../protocol/chunk.js';
import { Conversation } from './conversation.js';
import type { StepResult, ToolCallRecord } from '../protocol/records.js';
import type { RunState } from './run-state.js';
import type { ResolvedHandoff } from '../handoff/handoff.js';
import type { Message } from '../protocol/message.js';
import { chooseRoute } from './choose-route.js';
import { handOff, type HandoffResult } from './hand-off.js';
import { runToolCalls } from './run-tool-calls.js';
import type { StopReason } from '../protocol/stop-reason.js';
import type { RequestParts, TraceToolDefinition } from './llm-event-fields.js';
import { toTraceError } from './to-trace-error.js';
import { ToolCallLedger } from './tool-call-ledger.js';

/** How one agent's turn in a run ended. */
export interface AgentOutcome {
  readonly stopReason: StopReason;
  readonly output: string;
  readonly error: Error | undefined;
  readonly conversation: Conversation;
  /** The limit that stopped the agent, when one did. */
  readonly limit: StopLimit | undefined;
  /** Why the agent stopped, for people. */
  readonly detail: string | undefined;
  /** Tools declared unavailable after failing (the run was degraded). */
  readonly degradedTools: readonly string[];
  /**
   * Set when the agent that finished has an output schema: its decoded answer (`value` is
   * undefined unless it completed). Undefined for an agent that answers in text.
   */
  readonly decoded: { readonly value: unknown } | undefined;
  /** The agent that produced the outcome: this one, or the last one it handed off to. */
  readonly agentName: string;
}

/** How an agent's turn starts: with new input (the entry agent) or a conversation handed over. */
export interface AgentStart {
  /** The user's input; absent for the target of a handoff, which carries on the conversation. */
  readonly input?: string;
  /** The conversation so far: the run's `history`, or what the handing-off agent passes on. */
  readonly messages: readonly Message[];
  /** The agents the conversation has passed through, this one last. */
  readonly path: readonly string[];
}

/** The tools offered to the model and the hashes of what precedes the messages. */
interface Preamble {
  readonly tools: readonly ToolDefinition[];
  /** Instructions and tools together: part of the request hash. */
  readonly hash: string;
  readonly instructionsHash: string;
  readonly toolsHash: string;
}

function preambleFor(agent: AnyAgent, unavailable: ReadonlySet<string>): Preamble {
  const tools = [
    ...agent.toolRegistry.definitions.filter(definition => !unavailable.has(definition.name)),
    ...agent.handoffs().map(handoff => handoff.definition),
  ];
  return {
    tools,
    hash: hashString(JSON.stringify([agent.instructions, tools])),
    instructionsHash: hashString(agent.instructions),
    toolsHash: hashString(JSON.stringify(tools)),
  };
}

const noToolsHash = hashString('[]');

/** The hash of each part of a model request, for the trace. */
function requestParts(
  preamble: Preamble,
  messagesHash: string,
  responseFormat: ModelRequest['responseFormat'],
): RequestParts {
  const parts: Writable<RequestParts> = {
    instructions: preamble.instructionsHash,
    tools: responseFormat === undefined ? preamble.toolsHash : noToolsHash,
    messages: messagesHash,
  };
  if (responseFormat !== undefined)
    parts.response_format = hashString(JSON.stringify(responseFormat));
  return parts;
}

/**
 * Runs one agent until its termination policy finishes or stops it: model call → tool calls
 * (in parallel, results in the order asked) → model call … Yields the run's chunks; every span it
 * opens is closed, also when the model fails, the run is aborted or the consumer stops reading.
 */
export async function* runAgent(
  agent: AnyAgent,
  start: AgentStart,
  parent: OpenSpan,
  state: RunState,
): AsyncGenerator<Chunk, AgentOutcome, undefined> {
  const { tracer, chunks } = state;
  const { input } = start;
  const conversation = new Conversation(state.redactor);
  const carried =
    agent.memory.maxItems === undefined
      ? start.messages
      : recentMessages(start.messages, agent.memory.maxItems);
  for (const message of carried) conversation.append(message);
  if (input !== undefined) conversation.append({ role: 'user', content: input });
  const inputIndex = conversation.messages.findLastIndex(message => message.role === 'user');
  const agentSpan = tracer.start('agent_start', agent.name, parent, {
    model: agent.model.modelId,
    provider: agent.model.provider,
    instructions: agent.instructions,
    tools: agent.toolRegistry.definitions.map(definition => definition.name),
    ...(agent.handoffs().length === 0
      ? {}
      : { handoffs: agent.handoffs().map(handoff => handoff.agent.name) }),
    ...(start.path.length > 1 ? { path: [...start.path] } : {}),
    max_steps: agent.limits.maxSteps,
    ...(carried.length === 0 ? {} : { history_messages: carried.length }),
    ...(agent.memory.window === undefined ? {} : { memory_window: agent.memory.window }),
    ...(tracer.recording && !state.describedAgents.has(agent.name)
      ? { tool_definitions: describeTools(agent) }
      : {}),
  });
  state.describedAgents.add(agent.name);
  const unavailableTools = new Set<string>();
  let preamble = preambleFor(agent, unavailableTools);
  const schema = agent.output;
  const responseFormat =
    schema === undefined
      ? undefined
      : {
          name: `${agent.name}_output`,
          schema: z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>,
        };
  // With tools, the schema is only sent once the LLM ends its turn (the final-output phase):
  // asking for JSON while tools are offered makes models answer too early.
  let finalPhase = schema !== undefined && preamble.tools.length === 0;
  let decodeRetries = 0;
  let structured: unknown;
  let handedOff: AgentOutcome | undefined;
  let stopReason: StopReason | undefined;
  let output = '';
  let error: Error | undefined;
  let limit: StopLimit | undefined;
  let detail: string | undefined;
  const ledger = new ToolCallLedger();
  let agentSteps = 0;
  let agentUsage = zeroUsage;
  const guard = { tracer, parent: agentSpan, findings: state.guardrailFindings };
  const checkOf = (stage: 'input' | 'output', text: string) => ({
    stage,
    text,
    agentName: agent.name,
    session: tracer.session,
  });
  /** Ends this agent's turn with what came of a handoff (a refused one is handled by the caller). */
  const takeHandoffResult = (result: HandoffResult): void => {
    if (result.kind === 'refused') return;
    if (result.kind === 'stopped') {
      ({ reason: stopReason, detail, limit } = result);
      return;
    }
    handedOff = result.outcome;
    ({ stopReason, output, error, limit } = handedOff);
    detail = `handed off to '${handedOff.agentName}'${handedOff.detail === undefined ? '' : `: ${handedOff.detail}`}`;
  };
  /**
   * Ends the turn with `text` as the answer, unless an output guardrail withholds it. An answer
   * given without a tool that was declared unavailable is a degraded one, and says so.
   */
  const finish = async (
    text: string,
  ): Promise<{ stopReason: StopReason; output: string; detail: string | undefined }> => {
    const blocked = await runGuardrails(agent.guardrails.output, checkOf('output', text), guard);
    if (blocked === undefined && unavailableTools.size > 0) {
      const tools = [...unavailableTools].map(name => `'${name}'`).join(', ');
      return {
        stopReason: 'tool_failure_degraded',
        output: text,
        detail: `answered without ${tools}, declared unavailable after ${agent.resilience.toolRetries + 1} failed attempts`,
      };
    }
    if (blocked === undefined) return { stopReason: 'completed', output: text, detail: undefined };
    return {
      stopReason: 'guardrail_blocked',
      output: '',
      detail: `output guardrail '${blocked.guardrail}' withheld the answer: ${blocked.reason}`,
    };
  };
  try {
    const blockedInput =
      input === undefined
        ? undefined
        : await runGuardrails(agent.guardrails.input, checkOf('input', input), guard);
    if (blockedInput !== undefined) {
      stopReason = 'guardrail_blocked';
      detail = `input guardrail '${blockedInput.guardrail}' blocked the run: ${blockedInput.reason}`;
    } else if (agent.router !== undefined) {
      const choice = yield* chooseRoute({
        router: agent,
        spec: agent.router,
        input: input ?? '',
        conversation,
        requestHash: tracer.recording ? conversation.requestHash(preamble.hash) : '',
        agentSpan,
        state,
      });
      if ('problem' in choice) {
        stopReason = 'error';
        error = new Error(choice.problem);
        detail = choice.problem;
      } else {
        const route = agent.handoffs().find(handoff => handoff.agent.name === choice.agentName);
        takeHandoffResult(
          yield* handOff({
            from: agent,
            handoff: route as ResolvedHandoff,
            route: choice,
            conversation,
            path: start.path,
            agentSpan,
            state,
            runAgent,
          }),
        );
      }
    }
    while (stopReason === undefined) {
      if (agentSteps >= agent.limits.maxSteps) {
        stopReason = 'max_steps';
        limit = { name: 'maxSteps', value: agent.limits.maxSteps };
        detail = `the agent made ${agentSteps} model calls and still asked for tools; ${agent.limits.maxSteps} allowed`;
        break;
      }
      throwIfAborted(state.signal);
      agentSteps++;
      const offered = finalPhase ? [] : preamble.tools;
      const preambleHash = finalPhase
        ? hashString(`${preamble.hash}\nfinal:${JSON.stringify(responseFormat)}`)
        : preamble.hash;
      const window = agent.memory.window;
      const shown =
        window === undefined
          ? conversation.messages
          : windowedMessages(conversation.messages, window, inputIndex);
      const response = yield* callModel(
        {
          agent,
          step: agentSteps,
          conversation,
          messages: shown,
          tools: offered,
          // Only a trace shows the hash. A windowed request is hashed whole (bounded by the
          // window); otherwise the rolling hash.
          requestHash: !tracer.recording
            ? ''
            : window === undefined
              ? conversation.requestHash(preambleHash)
              : conversation.windowHash(preambleHash, shown),
          ...(tracer.recording
            ? {
                requestParts: requestParts(
                  preamble,
                  window === undefined
                    ? conversation.messagesHash()
                    : conversation.windowMessagesHash(shown),
                  finalPhase ? responseFormat : undefined,
                ),
              }
            : {}),
          agentSpan,
          ...(finalPhase && responseFormat !== undefined ? { responseFormat } : {}),
        },
        state,
      );
      agentUsage = addUsage(agentUsage, response.usage);
      state.totals.usage = addUsage(state.totals.usage, response.usage);
      recordGuardedUsage(agent, response.usage, tracer.session);
      output = response.text;
      if (chunks.wanted) {
        if (!state.streaming && response.text !== '')
          yield chunks.make('delta', agent.name, { text: response.text });
        yield chunks.make('usage', agent.name, response.usage);
      }
      conversation.append({
        role: 'assistant',
        content: response.text,
        toolCalls: response.toolCalls,
      });
      const step: StepResult = {
        index: state.steps.length + 1,
        agent: agent.name,
        text: response.text,
        toolCalls: [],
        finishReason: response.finishReason,
        usage: response.usage,
      };
      state.steps.push(step);
      if (finalPhase && schema !== undefined) {
        const decoded = decodeOutput(schema, response);
        if (!decoded.ok) {
          if (decodeRetries < agent.limits.maxDecodeRetries) {
            decodeRetries++;
            conversation.append({ role: 'user', content: decodeRetryRequest(decoded.problem) });
            continue;
          }
          stopReason = 'output_decoding_failed';
          limit = { name: 'maxDecodeRetries', value: agent.limits.maxDecodeRetries };
          detail = `the final answer did not decode after ${decodeRetries + 1} tries: ${decoded.problem}`;
          break;
        }
        ({ stopReason, output, detail } = await finish(response.text));
        if (stopReason !== 'guardrail_blocked') structured = decoded.value;
        break;
      }
      const decision = agent.terminationPolicy.decide(
        response,
        ledger.context(agentSteps, state.totals.usage),
      );
      if (decision.kind === 'finish' && responseFormat !== undefined) {
        finalPhase = true;
        conversation.append({ role: 'user', content: finalOutputRequest(responseFormat.schema) });
        continue;
      }
      if (decision.kind === 'finish') {
        ({ stopReason, output, detail } = await finish(decision.output));
        break;
      }
      if (decision.kind === 'stop') {
        ({ reason: stopReason, detail, limit } = decision);
        break;
      }
      const refused = decision.toolCalls.find(call => unavailableTools.has(call.toolName));
      if (refused !== undefined) {
        stopReason = 'tool_failure_degraded';
        detail = `the LLM asked for tool '${refused.toolName}' again after it was declared unavailable, instead of answering without it`;
        break;
      }
      const handoffs = agent.handoffs();
      const handoffCalls = decision.toolCalls.filter(call =>
        handoffs.some(handoff => handoff.toolName === call.toolName),
      );
      const toolCalls = decision.toolCalls.filter(call => !handoffCalls.includes(call));
      ledger.record(decision.toolCalls);
      const degradedBefore = unavailableTools.size;
      if (toolCalls.length > 0) {
        const records = yield* runToolCalls({
          agent,
          calls: toolCalls,
          conversation,
          agentSpan,
          state,
          unavailableTools,
          path: start.path,
          runAgent,
        });
        (step.toolCalls as ToolCallRecord[]).push(...records);
      }

      if (unavailableTools.size !== degradedBefore) preamble = preambleFor(agent, unavailableTools);
      const [taken, ...ignored] = handoffCalls;
      if (taken !== undefined) {
        for (const call of ignored) {
          conversation.append({
            role: 'tool',
            callId: call.callId,
            toolName: call.toolName,
            content: `Ignored: only one handoff per turn, and '${taken.toolName}' was taken.`,
            isError: true,
          });
        }
        const result = yield* handOff({
          from: agent,
          handoff: handoffs.find(handoff => handoff.toolName === taken.toolName) as ResolvedHandoff,
          call: taken,
          conversation,
          path: start.path,
          agentSpan,
          state,
          runAgent,
        });
        if (result.kind === 'refused') continue;
        takeHandoffResult(result);
        break;
      }
      const condition = agent.stopWhen.findIndex(stop =>
        stop({ steps: state.steps, toolCalls: state.toolCalls, usage: state.totals.usage }),
      );
      if (condition !== -1) {
        stopReason = 'completed';
        detail = `stopWhen condition ${condition} returned true after step ${agentSteps}`;
        break;
      }
    }
    if (handedOff === undefined && stopReason !== undefined && stopReason !== 'completed') {
      // A stop that is not a completion ends the agent's chunks with an `error` chunk (a thrown
      // failure gets one below), so a stream consumer learns why without reading the trace.
      if (chunks.wanted) yield chunks.make('error', agent.name, stopChunk(stopReason, detail));
    }
  } catch (caught) {
    error = caught instanceof Error ? caught : new Error(String(caught));
    stopReason = isAbort(caught, state.signal) ? interruptionReason(state.signal) : 'error';
    if (stopReason === 'timeout') error = state.signal?.reason as RunTimeoutError;
    const { type, message } = toTraceError(error);
    if (chunks.wanted) yield chunks.make('error', agent.name, { kind: type, message });
  } finally {
    if (stopReason === undefined) {
      stopReason = 'aborted';
      error = new RunAbortedError({ reason: 'the stream consumer stopped reading' });
    }
    tracer.end(agentSpan, {
      stop_reason: stopReason,
      steps: agentSteps,
      tool_calls: ledger.total,
      tok_prompt: agentUsage.promptTokens,
      tok_completion: agentUsage.completionTokens,
      output,
      ...(error === undefined ? {} : { error: toTraceError(error) }),
      ...(limit === undefined ? {} : { limit }),
      ...(detail === undefined ? {} : { detail }),
      ...(unavailableTools.size === 0 ? {} : { degraded_tools: [...unavailableTools] }),
      ...(handedOff === undefined ? {} : { handed_off_to: handedOff.agentName }),
    });
  }
  if (handedOff !== undefined) return handedOff;
  return {
    stopReason,
    output,
    error,
    conversation,
    limit,
    detail,
    degradedTools: [...unavailableTools],
    decoded: schema === undefined ? undefined : { value: structured },
    agentName: agent.name,
  };
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return error instanceof RunAbortedError || signal?.aborted === true;
}

/** `timeout` when the run's own timer fired, `aborted` for any other abort. */
function interruptionReason(signal: AbortSignal | undefined): StopReason {
  return signal?.reason instanceof RunTimeoutError ? 'timeout' : 'aborted';
}

/** Tells every guardrail of the agent that keeps a budget what a model call used. */
function recordGuardedUsage(agent: AnyAgent, usage: Usage, session: string): void {
  const { input, output, tool } = agent.guardrails;
  for (const guardrail of new Set([...input, ...output, ...tool])) {
    guardrail.recordUsage?.(usage, { session });
  }
}

function stopChunk(stopReason: StopReason, detail: string | undefined) {
  return { kind: stopReason, message: detail ?? `the run stopped: ${stopReason}` };
}

/** The definitions of the tools an agent offers (handoffs included), as `agent_start` records them. */
function describeTools(agent: AnyAgent): TraceToolDefinition[] {
  return preambleFor(agent, new Set()).tools.map(({ name, description, inputSchema }) => ({
    name,
    description,
    parameters: inputSchema,
  }));
}
