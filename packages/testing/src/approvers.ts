import { resume, run, type Agent, type RunOptions, type RunResult } from '@agent-trace/core';
import { type ApprovalDecision, type PendingApproval } from '@agent-trace/core/approval';

/** Decides on the calls a paused run waits for: one decision per pending call. */
export type Approver = (
  pending: readonly PendingApproval[],
) => readonly ApprovalDecision[] | Promise<readonly ApprovalDecision[]>;

/** A decision without the call it is about. */
export type Verdict =
  | { readonly decision: 'approve'; readonly by?: string; readonly reason?: string }
  | { readonly decision: 'reject'; readonly by?: string; readonly reason?: string }
  | {
      readonly decision: 'edit';
      readonly args: unknown;
      readonly by?: string;
      readonly reason?: string;
    };

/** Decides each pending call with `decide`. */
export function decideBy(
  decide: (approval: PendingApproval) => Verdict | Promise<Verdict>,
): Approver {
  return async pending =>
    Promise.all(
      pending.map(async (approval): Promise<ApprovalDecision> => ({
        ...(await decide(approval)),
        callId: approval.callId,
      })),
    );
}

/** Approves every pending call. */
export function approveAll(by = 'approver'): Approver {
  return decideBy(() => ({ decision: 'approve', by }));
}

/** Rejects the calls of `toolName` with `reason` (told to the model); approves the others. */
export function rejectTool(toolName: string, reason: string, by = 'approver'): Approver {
  return decideBy(approval =>
    approval.toolName === toolName
      ? { decision: 'reject', by, reason }
      : { decision: 'approve', by },
  );
}

/** Options of {@link runWithApprover}. */
export interface RunWithApproverOptions extends RunOptions {
  /** Pauses answered before the run is given back still paused. @defaultValue 10 */
  readonly maxPauses?: number;
}

/**
 * Runs `agent` and answers every pause with `approver`, resuming until the run stops for another
 * reason (or `maxPauses` pauses were answered). The models and tools are the same objects across
 * the pauses, so a FakeLLM script goes on where it stopped. Gives the last result and how many
 * pauses there were.
 */
export async function runWithApprover<Output>(
  agent: Agent<Output>,
  input: string,
  approver: Approver,
  options: RunWithApproverOptions = {},
): Promise<{ result: RunResult<Output>; pauses: number }> {
  const { maxPauses = 10, ...runOptions } = options;
  let result = await run(agent, input, runOptions);
  let pauses = 0;
  while (result.state !== undefined && pauses < maxPauses) {
    pauses++;
    const decisions = await approver(result.interruptions);
    result = await resume(agent, result.state, { ...runOptions, decisions });
  }
  return { result, pauses };
}
