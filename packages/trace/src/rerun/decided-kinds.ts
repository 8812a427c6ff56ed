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
]);
