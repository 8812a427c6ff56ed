import { AgentTraceError } from '../../kernel/errors/agent-trace-error.js';
import { StreamAssembler } from '../../kernel/model/assemble-stream.js';
import type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../../kernel/model/language-model.js';
import { partsOfResponse } from '../../kernel/model/response-parts.js';
import { contentKey, requestContent } from './request-key.js';
import { defined } from '../../kernel/util/defined.js';

/** A stored answer: the request it answers (as sent), and the response. */
export interface CachedAnswer {
  readonly key: string;
  readonly request: Record<string, unknown>;
  readonly response: ModelResponse;
}

/** Where answers are kept: in memory (`memoryCache`), or a cassette file (`@agent-trace/testing`). */
export interface ModelCache {
  get(key: string): CachedAnswer | undefined;
  set(answer: CachedAnswer): void;
  /** Explains a miss in replay mode: the closest stored request, and what differs. */
  explainMiss?(request: Record<string, unknown>): string;
}

/**
 * How a cached model answers:
 * - `auto`: from the cache when it has the request, else from the model, storing the answer;
 * - `record`: always from the model, storing every answer;
 * - `replay`: only from the cache: a request it does not have fails, saying what is closest;
 * - `off`: always from the model, the cache untouched.
 */
export type CacheMode = 'auto' | 'record' | 'replay' | 'off';

/** A run's cache (the `cache` run option): where answers are kept, and how (`auto` unless told). */
export type RunCache = ModelCache | { readonly cache: ModelCache; readonly mode?: CacheMode };

/** A request a cache in `replay` mode does not have. */
export class CacheMissError extends AgentTraceError {
  constructor(model: string, explanation: string) {
    super({
      message: `No recorded answer for this request to ${model} (replay mode). ${explanation}`,
    });
    this.name = 'CacheMissError';
  }
}

/**
 * A model that answers from `cache`, keyed by the canonical request (the model, its settings and
 * everything the request sends). An answer from the cache is marked `cacheHit`: the trace records
 * it as a hit (`llm_end.cache_hit`), and it costs nothing. Streaming works too: a hit streams the
 * stored answer.
 */
export function cachedModel(
  model: LanguageModel,
  { cache, mode = 'auto' }: { cache: ModelCache; mode?: CacheMode },
): LanguageModel {
  const name = `${model.provider}/${model.modelId}`;
  const lookup = (request: ModelRequest) => {
    const content = requestContent(model, request);
    const key = contentKey(content);
    const hit = mode === 'auto' || mode === 'replay' ? cache.get(key) : undefined;
    if (hit === undefined && mode === 'replay')
      throw new CacheMissError(
        name,
        cache.explainMiss?.(content) ?? 'The cache holds no answers to compare with.',
      );
    return { key, content, hit };
  };
  const store = (key: string, content: Record<string, unknown>, response: ModelResponse): void => {
    if (mode === 'auto' || mode === 'record') cache.set({ key, request: content, response });
  };
  return {
    specificationVersion: 'v1',
    provider: model.provider,
    modelId: model.modelId,
    ...defined('settings', model.settings),
    async generate(request) {
      const { key, content, hit } = lookup(request);
      if (hit !== undefined) return { ...hit.response, cacheHit: true };
      const response = await model.generate(request);
      store(key, content, response);
      return response;
    },
    async *stream(request): AsyncGenerator<ModelStreamPart, void, undefined> {
      const { key, content, hit } = lookup(request);
      if (hit !== undefined) {
        yield* partsOfResponse({ ...hit.response, cacheHit: true });
        return;
      }
      const assembler = new StreamAssembler();
      for await (const part of model.stream(request)) {
        assembler.add(part);
        yield part;
      }
      store(key, content, assembler.finish());
    },
  };
}
