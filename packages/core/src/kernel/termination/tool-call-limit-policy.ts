import { ordinal } from '../util/ordinal.js';
import { firstCallOverLimit } from './first-call-over-limit.js';
import { limitPolicy } from './limit-policy.js';
import type { TerminationPolicy } from './termination-policy.js';

/**
 * Wraps a policy: when the LLM asks for a tool that already ran `maxToolCallsPerTool` times, the
 * run stops with `tool_call_limit` before running it.
 */
export function toolCallLimitPolicy(
  base: TerminationPolicy,
  { maxToolCallsPerTool }: { maxToolCallsPerTool: number },
): TerminationPolicy {
  return limitPolicy(base, (decision, context) => {
    const over = firstCallOverLimit(
      decision.toolCalls,
      call => call.toolName,
      context.toolCallCounts,
      maxToolCallsPerTool,
    );
    if (over === undefined) return undefined;
    return {
      kind: 'stop',
      reason: 'tool_call_limit',
      limit: { name: 'maxToolCallsPerTool', value: maxToolCallsPerTool },
      detail: `the LLM asked for tool '${over.call.toolName}' a ${ordinal(over.earlier + 1)} time; ${maxToolCallsPerTool} allowed`,
    };
  });
}
