import type { FinishReason } from '../../../kernel/protocol/finish-reason.js';

/** OpenAI's finish reasons (Chat Completions) in agent-trace's vocabulary. */
export function mapOpenAIFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}
