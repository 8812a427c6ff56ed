/**
 * A feature that refuses the tool calls an agent's allow-list does not name: the refused call does
 * not run, the model reads why, and the refusal is recorded as a guardrail's block (a `guardrail`
 * event, one of the result's `guardrails`), as a company's policy check would be.
 */
import { ToolCallError } from '@agent-trace/core';
import type { Feature } from '@agent-trace/core/features';

/** Each agent's allowed tools, by the agent's name; agents it does not name are left alone. */
export function toolAllowList(allowed: Readonly<Record<string, readonly string[]>>): Feature {
  return {
    name: 'tool-allow-list',
    version: 2,
    forRun: () => ({
      // Only the agents the list names take part: the others' steps cost nothing.
      appliesTo: agent => agent.name in allowed,
      beforeToolRound({ agent, calls }) {
        const refused = new Map<string, ToolCallError>();
        for (const { call, record } of calls) {
          if (allowed[agent.name]?.includes(call.toolName)) continue;
          const reason = `'${call.toolName}' is not on ${agent.name}'s allow-list`;
          record('guardrail', {
            guardrail: 'tool-allow-list',
            stage: 'tool',
            verdict: 'block',
            reason,
          });
          const message = `${reason}; answer without it.`;
          refused.set(
            call.callId,
            new ToolCallError({ kind: 'guardrail_blocked', toolName: call.toolName, message }),
          );
        }
        return refused;
      },
    }),
  };
}
