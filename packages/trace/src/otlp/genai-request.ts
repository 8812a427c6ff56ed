import type { TraceEventOf } from '@agent-trace/core';
import { followConversation, RunHistories } from '@agent-trace/core/record';
import { hashString } from '@agent-trace/core/util';
import { semconv, type SpanAttributes } from './semconv.js';

type TraceMessage = TraceEventOf<'llm_start'>['messages'][number];

/**
 * The model settings a call's span carries: each convention attribute, and the names providers
 * and bridges give the setting (the first is what an import writes back).
 */
export const requestSettings = [
  [semconv.temperature, ['temperature']],
  [semconv.maxTokens, ['maxOutputTokens', 'maxTokens', 'max_tokens', 'max_output_tokens']],
  [semconv.topP, ['topP', 'top_p']],
  [semconv.topK, ['topK', 'top_k']],
  [semconv.seed, ['seed']],
  [semconv.stopSequences, ['stopSequences', 'stop_sequences', 'stop']],
  [semconv.frequencyPenalty, ['frequencyPenalty', 'frequency_penalty']],
  [semconv.presencePenalty, ['presencePenalty', 'presence_penalty']],
] as const;

/**
 * A model call's request and response attributes: the sampling settings the model was made with
 * (`model_settings`), the output type (`json` when structured output was asked for), whether it
 * streamed and when its first chunk came, the server it went to, and the answer's id and model.
 */
export function requestAttributes(
  start: TraceEventOf<'llm_start'>,
  end: TraceEventOf<'llm_end'>,
  attributes: SpanAttributes,
): void {
  if (start.stream === true) attributes[semconv.requestStream] = true;
  if (start.server !== undefined) {
    attributes[semconv.serverAddress] = start.server.address;
    attributes[semconv.serverPort] = start.server.port;
  }
  if (end.response_id !== undefined) attributes[semconv.responseId] = end.response_id;
  if (end.response_model !== undefined) attributes[semconv.responseModel] = end.response_model;
  if (end.first_chunk_ms !== undefined)
    attributes[semconv.timeToFirstChunk] = end.first_chunk_ms / 1000;
  attributes[semconv.outputType] =
    start.phase === 'final_output' || start.request_parts?.response_format !== undefined
      ? 'json'
      : 'text';
  const settings = start.model_settings;
  if (settings === undefined) return;
  for (const [name, keys] of requestSettings) {
    const key = keys.find(candidate => settings[candidate] !== undefined);
    if (key === undefined) continue;
    const value = settings[key];
    if (typeof value === 'number') attributes[name] = value;
    else if (typeof value === 'string' && name === semconv.stopSequences)
      attributes[name] = [value];
    else if (Array.isArray(value) && value.every(item => typeof item === 'string'))
      attributes[name] = value;
  }
}

/** An agent's `gen_ai.agent.id`: stable per definition (its name, instructions and tools). */
export function agentId(start: TraceEventOf<'agent_start'>): string {
  return hashString(JSON.stringify([start.agent, start.instructions, [...start.tools].sort()]));
}

/**
 * What a run's spans need of its agents across their events: each agent's tool descriptions
 * (written on its first `agent_start` only), and with content captured, each agent's
 * conversation so far, so a model call's span holds the whole request it sent.
 */
export class AgentMemory {
  readonly #descriptions = new Map<string, Map<string, string>>();
  readonly #conversations = new Map<string, TraceMessage[]>();
  /** Each agent's input: the last user message its first request held (a window keeps it). */
  readonly #inputs = new Map<string, number>();
  /** Conversations' histories: a turn records only what its previous turn's did not hold. */
  readonly #histories = new RunHistories(conversationsKept);
  /** Each open run's whole history, for its entry agent's first request (`from_history`). */
  readonly #runs = new Map<string, readonly TraceMessage[]>();

  /**
   * A run starts: its whole history, kept until it ends. A turn whose previous turn this exporter
   * did not see (another process's, or one forgotten past the last {@link conversationsKept})
   * has only what it recorded: its first request's input messages begin there.
   */
  runStarted(start: TraceEventOf<'run_start'>): void {
    const history = this.#histories.of(start) ?? start.history;
    if (history !== undefined && history.length > 0) this.#runs.set(start.run, history);
  }

  /** A run ended: its history is no longer needed. */
  runEnded(run: string): void {
    this.#runs.delete(run);
  }

  /** An agent starts: its tools' descriptions, when this start gives them. */
  started(start: TraceEventOf<'agent_start'>): void {
    if (start.tool_definitions === undefined) return;
    this.#descriptions.set(
      start.agent,
      new Map(start.tool_definitions.map(tool => [tool.name, tool.description])),
    );
  }

  /** The description of an agent's tool; undefined when unknown or empty. */
  toolDescription(agent: string, tool: string): string | undefined {
    const description = this.#descriptions.get(agent)?.get(tool);
    return description === '' ? undefined : description;
  }

  /**
   * The messages a model call sent: the agent's conversation with what is new in this call, its
   * last `message_count` (a memory window sends the newest).
   */
  sent(start: TraceEventOf<'llm_start'>): readonly TraceMessage[] {
    const key = start.parent_span_id ?? start.agent;
    const conversation = followConversation(
      this.#conversations.get(key) ?? [],
      start,
      this.#runs.get(start.run),
    );
    this.#conversations.set(key, conversation);
    if (!this.#inputs.has(key))
      this.#inputs.set(
        key,
        conversation.findLastIndex(message => message.role === 'user'),
      );
    return windowSent(conversation, start.message_count, this.#inputs.get(key) ?? -1);
  }

  /** An agent's span ended: its conversation is no longer needed. */
  ended(agentSpanId: string): void {
    this.#conversations.delete(agentSpanId);
    this.#inputs.delete(agentSpanId);
  }
}

/** The most conversations an exporter keeps the last turns of (see {@link AgentMemory}). */
export const conversationsKept = 1000;

/**
 * The `count` messages a request with a memory window sent, as the loop chose them: the newest
 * messages, and the agent's input (at `inputIndex`) before them when it is older than they are.
 */
function windowSent(
  conversation: readonly TraceMessage[],
  count: number,
  inputIndex: number,
): readonly TraceMessage[] {
  if (count >= conversation.length) return conversation;
  const firstShown = conversation.length - count;
  const input = conversation[inputIndex];
  if (inputIndex >= firstShown || input === undefined || count === 0)
    return conversation.slice(firstShown);
  return [input, ...conversation.slice(firstShown + 1)];
}
