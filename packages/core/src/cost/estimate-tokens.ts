import type { LanguageModel, ModelRequest } from '../model/language-model.js';
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

/** The text of a request as a model reads it, roughly: instructions, messages and tool definitions. */
function requestText(request: Pick<ModelRequest, 'instructions' | 'messages' | 'tools'>): string {
  return [
    request.instructions,
    ...request.messages.map(message =>
      message.role === 'assistant'
        ? `${message.content}${message.toolCalls.map(call => `${call.toolName}${call.argumentsText}`).join('')}`
        : message.content,
    ),
    request.tools.length === 0 ? '' : JSON.stringify(request.tools),
  ].join('\n');
}

/**
 * The input tokens a request will take, before it is sent: counted with OpenAI's tokenizer for
 * OpenAI models when `js-tiktoken` is installed, else characters ÷ 4 (Anthropic publishes no
 * local tokenizer for its current models). Message framing is not counted: an estimate a little
 * low, never a bill.
 */
export async function estimateRequestTokens(
  model: Pick<LanguageModel, 'provider' | 'modelId'>,
  request: Pick<ModelRequest, 'instructions' | 'messages' | 'tools'>,
): Promise<{ readonly tokens: number; readonly counter: TokenCounter }> {
  const text = requestText(request);
  if (priceProvider(model.provider) === 'openai') {
    const name = encodingOf(model.modelId);
    const encoder = await encoderFor(name);
    if (encoder !== undefined) return { tokens: encoder.encode(text).length, counter: name };
  }
  return { tokens: Math.ceil(text.length / 4), counter: 'chars/4' };
}
