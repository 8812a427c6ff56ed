import { ConfigurationError } from '../../kernel/errors/configuration-error.js';
import type {
  LanguageModel,
  ModelRequest,
  ModelStreamPart,
} from '../../kernel/model/language-model.js';

/** Options of {@link model}: those of the provider's own factory. */
export interface ModelStringOptions {
  /** @defaultValue the provider's environment variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `OPENAI_COMPATIBLE_API_KEY`) */
  apiKey?: string;
  /** Required for `openai-compatible`: the server's OpenAI-style endpoint, e.g. http://127.0.0.1:11434/v1 (Ollama). */
  baseURL?: string;
  temperature?: number;
  maxOutputTokens?: number;
  /** The fetch the client uses (tests, proxies). @defaultValue the global fetch */
  fetch?: typeof fetch;
}

type Factory = (name: string, options: ModelStringOptions) => Promise<LanguageModel>;

/** The providers a model string may name, with the adapter each loads on first use. */
const providers: Readonly<Record<string, { readonly provider: string; readonly load: Factory }>> = {
  openai: {
    provider: 'openai.chat',
    load: async (name, options) => (await import('./openai/index.js')).openai(name, options),
  },
  'openai-responses': {
    provider: 'openai.responses',
    load: async (name, options) =>
      (await import('./openai/index.js')).openai.responses(name, options),
  },
  anthropic: {
    provider: 'anthropic.messages',
    load: async (name, options) => (await import('./anthropic/index.js')).anthropic(name, options),
  },
  'openai-compatible': {
    provider: 'openai-compatible',
    load: async (name, options) =>
      (await import('./openai/index.js')).openai(name, {
        ...options,
        // Local servers (Ollama, vLLM) take no key; the OpenAI client still wants one.
        apiKey: options.apiKey ?? process.env.OPENAI_COMPATIBLE_API_KEY ?? 'none',
      }),
  },
};

/** The environment variable {@link model} reads when called without a model string. */
export const modelEnvironmentVariable = 'AGENT_TRACE_MODEL';

/**
 * A model named by a string, `<provider>:<model>`, so that configuration (a file, an environment
 * variable) can switch providers: `openai:gpt-4o`, `openai-responses:gpt-4o`,
 * `anthropic:claude-sonnet-4-6`, or `openai-compatible:<name>` with a `baseURL` for Ollama, vLLM,
 * OpenRouter and the like. Without a string, `AGENT_TRACE_MODEL` names it. The provider's
 * adapter (and its SDK, an optional peer) is loaded at the first call.
 *
 * @example
 * ```ts
 * const local = model('openai-compatible:llama3.2', { baseURL: 'http://127.0.0.1:11434/v1' });
 * ```
 */
export function model(spec?: string, options: ModelStringOptions = {}): LanguageModel {
  const text = spec ?? process.env[modelEnvironmentVariable];
  if (text === undefined || text === '') {
    throw new ConfigurationError({
      option: 'model',
      message: `No model named: pass one, e.g. model('openai:gpt-4o'), or set ${modelEnvironmentVariable}=anthropic:claude-sonnet-4-6.`,
    });
  }
  const colon = text.indexOf(':');
  const providerName = colon === -1 ? '' : text.slice(0, colon);
  const name = colon === -1 ? '' : text.slice(colon + 1);
  const entry = Object.hasOwn(providers, providerName) ? providers[providerName] : undefined;
  if (entry === undefined || name === '') {
    throw new ConfigurationError({
      option: 'model',
      message: `Invalid model string ${JSON.stringify(text)}: expected <provider>:<model> with a provider among ${Object.keys(providers).join(', ')}, e.g. 'openai:gpt-4o'.`,
    });
  }
  if (providerName === 'openai-compatible' && options.baseURL === undefined) {
    throw new ConfigurationError({
      option: 'baseURL',
      message: `Model '${text}' needs the server's endpoint: model('${text}', { baseURL: 'http://127.0.0.1:11434/v1' }).`,
    });
  }
  return lazyModel(entry.provider, name, () => entry.load(name, options), options);
}

/** A model whose adapter is loaded on its first call. */
function lazyModel(
  provider: string,
  modelId: string,
  load: () => Promise<LanguageModel>,
  options: ModelStringOptions,
): LanguageModel {
  let loading: Promise<LanguageModel> | undefined;
  const loaded = () => (loading ??= load());
  const settings: Record<string, unknown> = {};
  if (options.temperature !== undefined) settings.temperature = options.temperature;
  if (options.maxOutputTokens !== undefined) settings.maxOutputTokens = options.maxOutputTokens;
  return {
    specificationVersion: 'v1',
    provider,
    modelId,
    settings: Object.freeze(settings),
    generate: async (request: ModelRequest) => (await loaded()).generate(request),
    async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart, void, undefined> {
      yield* (await loaded()).stream(request);
    },
  };
}
