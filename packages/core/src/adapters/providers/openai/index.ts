import { importPeer } from '../../../kernel/util/import-peer.js';
import type { OpenAIProvider } from './openai-provider.js';

// The provider code imports the optional peer `openai`: check it first, for a clear error.
await importPeer(() => import('openai'), {
  peer: 'openai',
  needer: '@agent-trace/core/openai',
  range: '^6.3.0 || ^7.0.0',
  runtime: true,
});
const provider = await import('./openai-provider.js');

/**
 * OpenAI models over the official `openai` client: `openai(model)` for Chat Completions,
 * `openai.responses(model)` for the Responses API.
 *
 * @example
 * ```ts
 * const model = openai('gpt-4o-mini');                 // OPENAI_API_KEY, read at the first call
 * const viaResponses = openai.responses('gpt-4o-mini');
 * ```
 */
export const openai: OpenAIProvider = provider.openai;
export type { OpenAIProvider } from './openai-provider.js';
export type { OpenAIModelOptions } from './openai-options.js';
