import type { LanguageModel, ModelRequest } from '../../kernel/model/language-model.js';
import { canonicalJson } from '../../kernel/util/canonical-json.js';
import { hashString } from '../../kernel/util/hash.js';
import { defined } from '../../kernel/util/defined.js';

/** What a model request sends, as a cache keys it: the model and everything in the request. */
export function requestContent(
  model: Pick<LanguageModel, 'provider' | 'modelId' | 'settings'>,
  request: ModelRequest,
): Record<string, unknown> {
  return {
    model: `${model.provider}/${model.modelId}`,
    ...(model.settings === undefined || Object.keys(model.settings).length === 0
      ? {}
      : { settings: model.settings }),
    instructions: request.instructions,
    tools: request.tools,
    messages: request.messages,
    ...defined('responseFormat', request.responseFormat),
    ...defined('stopSequences', request.stopSequences),
  };
}

/**
 * The key of a model request: a hash of its canonical JSON (object keys sorted), so the same
 * request to the same model with the same settings gets the same key in any process.
 */
export function requestKey(
  model: Pick<LanguageModel, 'provider' | 'modelId' | 'settings'>,
  request: ModelRequest,
): string {
  return contentKey(requestContent(model, request));
}

/** The key of a request's content ({@link requestContent}): a hash of its canonical JSON. */
export function contentKey(content: Record<string, unknown>): string {
  const text = canonicalJson(content);
  return `${hashString(text)}${hashString(text, 1)}`;
}
