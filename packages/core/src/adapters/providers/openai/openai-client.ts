import OpenAI from 'openai';
import { loadApiKey } from '../load-api-key.js';
import type { OpenAIModelOptions } from './openai-options.js';
import { defined } from '../../../kernel/util/defined.js';

/**
 * A client made on first use (so a missing key fails the first call, not the import). Retries are
 * off: the agent loop's retry policy decides, and traces every attempt.
 */
export function lazyOpenAIClient(options: OpenAIModelOptions, factory: string): () => OpenAI {
  let client = options.client;
  return () => {
    client ??= new OpenAI({
      apiKey: loadApiKey({
        apiKey: options.apiKey,
        environmentVariable: 'OPENAI_API_KEY',
        providerName: 'OpenAI',
        factory,
      }),
      maxRetries: 0,
      ...defined('baseURL', options.baseURL),
      ...defined('organization', options.organization),
      ...defined('fetch', options.fetch),
    });
    return client;
  };
}
