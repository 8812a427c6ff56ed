import { anthropic } from '@agent-trace/core/anthropic';
import { openai } from '@agent-trace/core/openai';
import type { ModelFor } from './agents.js';

/**
 * Real models for `pnpm demo --live`: OpenAI when `OPENAI_API_KEY` is set, else Anthropic when
 * `ANTHROPIC_API_KEY` is; undefined when neither is. The scripts are ignored.
 */
export function liveModels(environment: NodeJS.ProcessEnv): ModelFor | undefined {
  if (environment.OPENAI_API_KEY !== undefined && environment.OPENAI_API_KEY !== '') {
    return (_agent, _script, modelId) =>
      openai(modelId.startsWith('gpt') ? modelId : 'gpt-4o-mini');
  }
  if (environment.ANTHROPIC_API_KEY !== undefined && environment.ANTHROPIC_API_KEY !== '') {
    return () => anthropic('claude-sonnet-4-6');
  }
  return undefined;
}
