/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return -- foreign JSON, read by its documented field names */
/**
 * What a recorded real response says, read from it directly (apart from the adapters): its text,
 * its tool calls, its finish, its token counts, or the error it is. The corpus test checks the
 * adapters' `llm_end` against this.
 */
import { recordedText, streamAnswers, type Recorded } from './wire-server.js';

/** A tool call as the response gives it: its id, the tool, and the arguments (parsed). */
export interface ExpectedCall {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
}

/** A piece of what the model thought: its text, and what the provider wants back unread. */
export interface ExpectedReasoning {
  readonly text: string;
  readonly opaque?: string;
}

/** What the response says the model answered. */
export interface ExpectedAnswer {
  readonly text: string;
  readonly reasoning: readonly ExpectedReasoning[];
  readonly calls: readonly ExpectedCall[];
  readonly finish: 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';
  readonly promptTokens: number;
  readonly completionTokens: number;
}

// The recorded responses are foreign JSON, read by the field names their APIs document.
type Json = Record<string, any>;

const parsed = (text: string): unknown => (text.trim() === '' ? {} : JSON.parse(text));
const lines = (recorded: Recorded): Json[] =>
  (streamAnswers(recorded.file)[recorded.answer ?? 0] ?? []).map(line => JSON.parse(line) as Json);

const anthropicFinish = (reason: string | null | undefined): ExpectedAnswer['finish'] =>
  (
    ({
      end_turn: 'stop',
      stop_sequence: 'stop',
      tool_use: 'tool_calls',
      max_tokens: 'length',
      refusal: 'content_filter',
    }) as const
  )[reason ?? ''] ?? 'other';

const anthropicPrompt = (usage: Json): number =>
  (usage.input_tokens ?? 0) +
  (usage.cache_creation_input_tokens ?? 0) +
  (usage.cache_read_input_tokens ?? 0);

/** An Anthropic Messages answer, as JSON. */
function anthropicMessage(message: Json): ExpectedAnswer {
  const content = (message.content ?? []) as Json[];
  return {
    text: content
      .filter(block => block.type === 'text')
      .map(block => block.text as string)
      .join(''),
    reasoning: content.flatMap(block =>
      block.type === 'thinking'
        ? [{ text: block.thinking, opaque: block.signature }]
        : block.type === 'redacted_thinking'
          ? [{ text: '', opaque: block.data }]
          : [],
    ),
    calls: content
      .filter(block => block.type === 'tool_use')
      .map(block => ({ id: block.id, name: block.name, args: block.input })),
    finish: anthropicFinish(message.stop_reason),
    promptTokens: anthropicPrompt(message.usage),
    completionTokens: message.usage.output_tokens,
  };
}

/** An Anthropic Messages answer, streamed: its events put together, usage as finally counted. */
function anthropicStream(events: readonly Json[]): ExpectedAnswer {
  let usage: Json = {};
  let output = 0;
  let reason: string | undefined;
  let text = '';
  const calls = new Map<number, { id: string; name: string; json: string }>();
  const thinking = new Map<number, { text: string; opaque: string }>();
  for (const event of events) {
    const block = event.content_block;
    if (event.type === 'content_block_start' && block.type === 'thinking')
      thinking.set(event.index, { text: block.thinking, opaque: block.signature });
    else if (event.type === 'content_block_start' && block.type === 'redacted_thinking')
      thinking.set(event.index, { text: '', opaque: block.data });
    else if (event.type === 'content_block_delta' && event.delta.type === 'thinking_delta')
      (thinking.get(event.index) ?? { text: '' }).text += event.delta.thinking;
    else if (event.type === 'content_block_delta' && event.delta.type === 'signature_delta')
      (thinking.get(event.index) ?? { opaque: '' }).opaque += event.delta.signature;
    if (event.type === 'message_start') {
      usage = { ...event.message.usage };
      output = event.message.usage.output_tokens;
    } else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use')
      calls.set(event.index, {
        id: event.content_block.id,
        name: event.content_block.name,
        json: '',
      });
    else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta')
      text += event.delta.text;
    else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
      const call = calls.get(event.index);
      if (call !== undefined) call.json += event.delta.partial_json;
    } else if (event.type === 'message_delta') {
      reason = event.delta.stop_reason;
      output = event.usage.output_tokens;
      for (const [key, value] of Object.entries(event.usage))
        if (typeof value === 'number') usage[key] = value;
    }
  }
  return {
    text,
    reasoning: [...thinking.values()].map(part =>
      part.opaque === '' ? { text: part.text } : part,
    ),
    calls: [...calls.values()].map(call => ({
      id: call.id,
      name: call.name,
      args: parsed(call.json),
    })),
    finish: anthropicFinish(reason),
    promptTokens: anthropicPrompt(usage),
    completionTokens: output,
  };
}

const chatFinish = (
  reason: string | null | undefined,
  refused: boolean,
): ExpectedAnswer['finish'] =>
  refused
    ? 'content_filter'
    : ((
        {
          stop: 'stop',
          tool_calls: 'tool_calls',
          length: 'length',
          content_filter: 'content_filter',
        } as const
      )[reason ?? ''] ?? 'other');

/** An OpenAI Chat Completions answer, as JSON. */
function chatCompletion(completion: Json): ExpectedAnswer {
  const { message, finish_reason: reason } = completion.choices[0];
  const refusal = message.refusal as string | null | undefined;
  return {
    text: message.content ?? refusal ?? '',
    reasoning: [],
    calls: ((message.tool_calls ?? []) as Json[]).map(call => ({
      id: call.id,
      name: call.function.name,
      args: parsed(call.function.arguments),
    })),
    finish: chatFinish(reason, typeof refusal === 'string'),
    promptTokens: completion.usage.prompt_tokens,
    completionTokens: completion.usage.completion_tokens,
  };
}

/** An OpenAI Chat Completions answer, streamed: its chunks put together. */
function chatStream(chunks: readonly Json[]): ExpectedAnswer {
  let text = '';
  let refused = false;
  let reason: string | undefined;
  let usage: Json = { prompt_tokens: 0, completion_tokens: 0 };
  const calls = new Map<number, { id: string; name: string; json: string }>();
  for (const chunk of chunks) {
    if (chunk.usage) usage = chunk.usage;
    const choice = (chunk.choices ?? [])[0];
    if (choice === undefined) continue;
    if (typeof choice.delta?.content === 'string') text += choice.delta.content;
    if (typeof choice.delta?.refusal === 'string' && choice.delta.refusal !== '') {
      text += choice.delta.refusal;
      refused = true;
    }
    for (const fragment of (choice.delta?.tool_calls ?? []) as Json[]) {
      const call = calls.get(fragment.index) ?? {
        id: fragment.id,
        name: fragment.function?.name ?? '',
        json: '',
      };
      call.json += fragment.function?.arguments ?? '';
      calls.set(fragment.index, call);
    }
    if (choice.finish_reason) reason = choice.finish_reason;
  }
  return {
    text,
    reasoning: [],
    calls: [...calls.values()].map(call => ({
      id: call.id,
      name: call.name,
      args: parsed(call.json),
    })),
    finish: chatFinish(reason, refused),
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
  };
}

/** An OpenAI Responses answer (the JSON body, or a stream's completed response). */
function response(body: Json): ExpectedAnswer {
  let text = '';
  let refused = false;
  const calls: ExpectedCall[] = [];
  const reasoning: ExpectedReasoning[] = [];
  for (const item of (body.output ?? []) as Json[]) {
    if (item.type === 'reasoning') {
      // One piece a summary part; the item's encrypted content goes with its first.
      const texts = (item.summary as Json[]).map(part => part.text as string);
      for (const [index, text] of (texts.length === 0 ? [''] : texts).entries())
        reasoning.push(
          index === 0 && typeof item.encrypted_content === 'string'
            ? { text, opaque: item.encrypted_content }
            : { text },
        );
    }
    if (item.type === 'message')
      for (const part of item.content as Json[]) {
        if (part.type === 'output_text') text += part.text;
        if (part.type === 'refusal') {
          text += part.refusal;
          refused = true;
        }
      }
    if (item.type === 'function_call')
      calls.push({ id: item.call_id, name: item.name, args: parsed(item.arguments) });
  }
  const finish = refused
    ? 'content_filter'
    : calls.length > 0
      ? 'tool_calls'
      : body.status === 'completed'
        ? 'stop'
        : body.status === 'incomplete'
          ? 'length'
          : 'other';
  return {
    text,
    reasoning,
    calls,
    finish,
    promptTokens: body.usage?.input_tokens ?? 0,
    completionTokens: body.usage?.output_tokens ?? 0,
  };
}

/** The API a recorded file is of, by its name. */
export type RecordedApi = 'anthropic' | 'openai-chat' | 'openai-responses';

export const apiOf = (file: string): RecordedApi =>
  file.startsWith('anthropic-')
    ? 'anthropic'
    : file.startsWith('openai-chat-')
      ? 'openai-chat'
      : 'openai-responses';

/** What `recorded` (a successful answer) says the model answered. */
export function expectedAnswer(recorded: Recorded): ExpectedAnswer {
  const api = apiOf(recorded.file);
  if (recorded.as === 'json') {
    const body = JSON.parse(recordedText(recorded.file)) as Json;
    return api === 'anthropic'
      ? anthropicMessage(body)
      : api === 'openai-chat'
        ? chatCompletion(body)
        : response(body);
  }
  const events = lines(recorded);
  if (api === 'anthropic') return anthropicStream(events);
  if (api === 'openai-chat') return chatStream(events);
  const completed = events.findLast(
    event => event.type === 'response.completed' || event.type === 'response.incomplete',
  );
  // Its items as each was done: a reasoning item's encrypted content is sealed anew each time the
  // API writes it, so the completed response holds other bytes of the same item.
  const done = events.filter(event => event.type === 'response.output_item.done');
  return response({ ...completed?.response, output: done.map(event => event.item) });
}

/** The tools the answers of a recorded file call, by name. */
export const calledTools = (recorded: Recorded): string[] => [
  ...new Set(
    (recorded.as === 'json' ? [0] : streamAnswers(recorded.file).map((_, index) => index)).flatMap(
      answer => expectedAnswer({ ...recorded, answer }).calls.map(call => call.name),
    ),
  ),
];
