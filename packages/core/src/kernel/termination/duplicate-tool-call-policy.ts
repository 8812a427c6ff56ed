import { ordinal } from '../util/ordinal.js';
import { firstCallOverLimit } from './first-call-over-limit.js';
import { limitPolicy } from './limit-policy.js';
import type { TerminationPolicy } from './termination-policy.js';

/**
 * Wraps a policy: when the LLM asks for a call (same tool, same canonical arguments) that already
 * ran `maxDuplicateToolCalls` times, the run stops with `duplicate_tool_call` before running it.
 * Calls repeated within one response count too.
 */
export function duplicateToolCallPolicy(
  base: TerminationPolicy,
  { maxDuplicateToolCalls }: { maxDuplicateToolCalls: number },
): TerminationPolicy {
  return limitPolicy(base, (decision, context) => {
    const over = firstCallOverLimit(
      decision.toolCalls,
      call => context.fingerprint(call),
      context.callFingerprints,
      maxDuplicateToolCalls,
    );
    if (over === undefined) return undefined;
    return {
      kind: 'stop',
      reason: 'duplicate_tool_call',
      limit: { name: 'maxDuplicateToolCalls', value: maxDuplicateToolCalls },
      detail: `the LLM asked for tool '${over.call.toolName}' with the same arguments (${over.call.argumentsText || '{}'}) a ${ordinal(over.earlier + 1)} time; ${maxDuplicateToolCalls} allowed`,
    };
  });
}
