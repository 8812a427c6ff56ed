import type { FinishReason } from '../../../kernel/protocol/finish-reason.js';

/** Anthropic's stop reasons in agent-trace's vocabulary. */
export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}
