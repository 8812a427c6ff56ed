import { importPeer } from '../../../kernel/util/import-peer.js';

// The provider code imports the optional peer `@anthropic-ai/sdk`: check it first, for a clear error.
await importPeer(() => import('@anthropic-ai/sdk'), {
  peer: '@anthropic-ai/sdk',
  needer: '@agent-trace/core/anthropic',
  range: '^1.0.0',
  runtime: true,
});
const provider = await import('./anthropic-provider.js');

/**
 * An Anthropic model (Messages API) over the official `@anthropic-ai/sdk` client.
 *
 * @example
 * ```ts
 * const model = anthropic('claude-sonnet-4-6');   // ANTHROPIC_API_KEY, read at the first call
 * ```
 */
export const anthropic: typeof provider.anthropic = provider.anthropic;
export type { AnthropicModelOptions } from './anthropic-options.js';
