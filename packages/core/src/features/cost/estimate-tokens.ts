import type { LanguageModel, ModelRequest } from '../../kernel/model/language-model.js';
import type { Message } from '../../kernel/protocol/message.js';
import { priceProvider } from './prices.js';

/** How a request's tokens were counted: OpenAI's tokenizer, or characters ÷ 4. */
export type TokenCounter = 'o200k_base' | 'cl100k_base' | 'chars/4';

type Encoder = { encode(text: string): number[] };

const encoders = new Map<string, Promise<Encoder | undefined>>();

/** OpenAI's tokenizer for a model (js-tiktoken, an optional peer), loaded once; undefined without it. */
function encoderFor(name: 'o200k_base' | 'cl100k_base'): Promise<Encoder | undefined> {
  let loading = encoders.get(name);
  if (loading === undefined) {
    loading = import('js-tiktoken').then(
      module => module.getEncoding(name),
      () => undefined,
    );
    encoders.set(name, loading);
  }
  return loading;
}

/** The encoding of an OpenAI model: o200k for the GPT-4o, 4.1, 5 and o-series; cl100k before. */
function encodingOf(modelId: string): 'o200k_base' | 'cl100k_base' {
  return /^(gpt-4o|gpt-4\.1|gpt-5|o\d)/.test(modelId) ? 'o200k_base' : 'cl100k_base';
}

/** The text of a message as a model reads it, roughly. */
function messageText(message: Message): string {
  return message.role === 'assistant'
    ? `${message.content}${message.toolCalls.map(call => `${call.toolName}${call.argumentsText}`).join('')}`
    : message.content;
}

/**
 * Counts per object: messages and tool lists are immutable once made, so each is counted once,
 * and a long run's estimate costs what its new messages cost.
 */
class TokenCounts {
  readonly #objects = new WeakMap<object, number>();
  readonly #texts = new Map<string, number>();
  constructor(readonly count: (text: string) => number) {}

  of(key: object, text: () => string): number {
    let tokens = this.#objects.get(key);
    if (tokens === undefined) {
      tokens = this.count(text());
      this.#objects.set(key, tokens);
    }
    return tokens;
  }

  ofText(text: string): number {
    let tokens = this.#texts.get(text);
    if (tokens === undefined) {
      tokens = this.count(text);
      if (this.#texts.size > 256) this.#texts.clear();
      this.#texts.set(text, tokens);
    }
    return tokens;
  }
}

const counters = new Map<TokenCounter, TokenCounts>();

function countsFor(counter: TokenCounter, encoder: Encoder | undefined): TokenCounts {
  let counts = counters.get(counter);
  if (counts === undefined) {
    counts = new TokenCounts(
      encoder === undefined
        ? text => Math.ceil(text.length / 4)
        : text => encoder.encode(text).length,
    );
    counters.set(counter, counts);
  }
  return counts;
}

/**
 * The input tokens a request will take, before it is sent: counted with OpenAI's tokenizer for
 * OpenAI models when `js-tiktoken` is installed, else characters ÷ 4 (Anthropic publishes no
 * local tokenizer for its current models). Each part is counted on its own (the instructions,
 * each message, the tool definitions) and remembered, so a long run pays only for what is new.
 * Message framing is not counted: an estimate a little low, never a bill.
 */
export async function estimateRequestTokens(
  model: Pick<LanguageModel, 'provider' | 'modelId'>,
  request: Pick<ModelRequest, 'instructions' | 'messages' | 'tools'>,
): Promise<{ readonly tokens: number; readonly counter: TokenCounter }> {
  const name = priceProvider(model.provider) === 'openai' ? encodingOf(model.modelId) : undefined;
  const encoder = name === undefined ? undefined : await encoderFor(name);
  const counter: TokenCounter = encoder === undefined || name === undefined ? 'chars/4' : name;
  const counts = countsFor(counter, encoder);
  let tokens = counts.ofText(request.instructions);
  for (const message of request.messages) tokens += counts.of(message, () => messageText(message));
  if (request.tools.length > 0)
    tokens += counts.of(request.tools, () => JSON.stringify(request.tools));
  return { tokens, counter };
}
