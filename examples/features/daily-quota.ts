/**
 * A feature whose state outlives the run: `limit` calls of each tool a day, counted across every
 * run given the same quota. The count is read through `setup.kept`, so a run's trace keeps what
 * the runs before it had used, and a rerun of that run decides on it, not on this process's count.
 */
import type { ToolCallError } from '@agent-trace/core';
import type { Feature } from '@agent-trace/core/features';

/** `limit` calls of each tool a day, shared by the runs given the returned feature. */
export function dailyQuota(limit: number): Feature {
  // Outside forRun: every run given this feature counts here.
  const used = new Map<string, number>();
  return {
    name: 'daily-quota',
    version: 2,
    forRun: ({ kept, refuseTool }) => ({
      beforeToolRound(at) {
        const refused = new Map<string, ToolCallError>();
        for (const { call, attempt } of at.calls) {
          if (attempt > 1) continue;
          const key = `tool ${call.toolName}`;
          // What the runs so far used, as this run reads it (the recording's, in a rerun).
          const count = kept.read(at, key, used.get(call.toolName) ?? 0, 0) + 1;
          used.set(call.toolName, count);
          kept.wrote(key, count);
          if (count <= limit) continue;
          const message = `'${call.toolName}' may be called ${limit} times a day; try tomorrow.`;
          refused.set(
            call.callId,
            refuseTool({ toolName: call.toolName, kind: 'daily_limit', message }),
          );
        }
        return refused;
      },
    }),
  };
}
