import { ordinal } from './duplicate-tool-call-policy.js';
import type { TerminationDecision, TerminationPolicy } from './termination-policy.js';

/**
 * Wraps a policy: when the LLM asks for a tool that already ran `maxToolCallsPerTool` times, the
 * run stops with `tool_call_limit` before running it.
 */
export function toolCallLimitPolicy(
  base: TerminationPolicy,
  { maxToolCallsPerTool }: { maxToolCallsPerTool: number },
): TerminationPolicy {
  return {
    decide(response, context): TerminationDecision {
      const decision = base.decide(response, context);
      if (decision.kind !== 'run_tools') return decision;
      const inThisResponse = new Map<string, number>();
      for (const call of decision.toolCalls) {
        const earlier =
          (context.toolCallCounts.get(call.toolName) ?? 0) +
          (inThisResponse.get(call.toolName) ?? 0);
        if (earlier >= maxToolCallsPerTool) {
          return {
            kind: 'stop',
            reason: 'tool_call_limit',
            limit: { name: 'maxToolCallsPerTool', value: maxToolCallsPerTool },
            detail: `the LLM asked for tool '${call.toolName}' a ${ordinal(earlier + 1)} time; ${maxToolCallsPerTool} allowed`,
          };
        }
        inThisResponse.set(call.toolName, (inThisResponse.get(call.toolName) ?? 0) + 1);
      }
      return decision;
    },
  };
}
