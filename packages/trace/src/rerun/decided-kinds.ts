import type { ToolCallErrorKind } from '@agent-trace/core';

/**
 * The failures the loop or a feature decides without running the tool (a breaker's refusal, a
 * guardrail's block, arguments its schema refuses, a tool declared unavailable): not the outside
 * world, so a rerun does not answer with them but decides again.
 */
export const decidedKinds: ReadonlySet<string> = new Set<ToolCallErrorKind>([
  'circuit_open',
  'unavailable',
  'guardrail_blocked',
  'unknown_tool',
  'invalid_arguments',
  'awaiting_approval',
  'refused',
]);

/** A model call's failure the run decided before sending it (a breaker's, a feature's refusal). */
export function refusedModelCall(type: string | undefined): boolean {
  return type === 'circuit_open' || type === 'refused';
}
