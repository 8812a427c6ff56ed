/**
 * A feature that gives each tool a quota of calls per run: a call past it does not run, and is
 * refused in this feature's own name and with its own kind (`quota_exceeded`), so the trace, the
 * result and SQL tell it from a guardrail's block. The model reads the message and answers without
 * the call. It also writes an event of its own (`tool-quota.used_up`) the first time a tool's quota
 * runs out.
 */
import type { ToolCallError } from '@agent-trace/core';
import type { Feature } from '@agent-trace/core/features';

/** Each tool may be called `perTool` times a run (a tool named in `quotas` that many instead). */
export function toolQuota(perTool: number, quotas: Readonly<Record<string, number>> = {}): Feature {
  return {
    name: 'tool-quota',
    version: 2,
    forRun: ({ emit, refuseTool }) => {
      // The calls so far in this run, by tool: the state lives in the run's hooks.
      const used = new Map<string, number>();
      return {
        beforeToolRound(at) {
          const refused = new Map<string, ToolCallError>();
          for (const { call, attempt } of at.calls) {
            // A retry of a call already counted is not a new call.
            if (attempt > 1) continue;
            const quota = quotas[call.toolName] ?? perTool;
            const count = (used.get(call.toolName) ?? 0) + 1;
            used.set(call.toolName, count);
            if (count <= quota) continue;
            if (count === quota + 1) emit(at, 'used_up', { tool: call.toolName, quota });
            const message = `'${call.toolName}' may be called ${quota} times a run; answer with what you have.`;
            refused.set(
              call.callId,
              refuseTool({ toolName: call.toolName, kind: 'quota_exceeded', message }),
            );
          }
          return refused;
        },
      };
    },
  };
}
