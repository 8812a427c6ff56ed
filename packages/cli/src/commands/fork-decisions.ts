import { readFile } from 'node:fs/promises';
import type { ApprovalDecision } from '@agent-trace/core/approval';

/** What `fork` is told on its command line about the calls that wait for approval. */
export interface DecisionFlags {
  /** Calls to approve: an id, or a tool's name. */
  readonly approve: readonly string[];
  /** Calls to refuse: an id, or a tool's name. */
  readonly reject: readonly string[];
  /** Why refused calls are refused: what the model is told. */
  readonly reason?: string;
  /** Who decides. */
  readonly by?: string;
  /** A JSON file of decisions: `[{ "callId": "refund", "decision": "edit", "args": { … } }]`. */
  readonly decisions?: string;
}

const kinds = new Set(['approve', 'reject', 'edit']);

/**
 * The decisions a fork goes on with: the file's, then `--approve` and `--reject`; or what is
 * wrong with them, for stderr.
 */
export async function forkDecisions(flags: DecisionFlags): Promise<ApprovalDecision[] | string> {
  const said = {
    ...(flags.by === undefined ? {} : { by: flags.by }),
  };
  const decisions: ApprovalDecision[] = [];
  if (flags.decisions !== undefined) {
    const read = await decisionsFile(flags.decisions);
    if (typeof read === 'string') return read;
    decisions.push(...read);
  }
  for (const callId of flags.approve) decisions.push({ callId, decision: 'approve', ...said });
  for (const callId of flags.reject)
    decisions.push({
      callId,
      decision: 'reject',
      ...said,
      ...(flags.reason === undefined ? {} : { reason: flags.reason }),
    });
  return decisions;
}

async function decisionsFile(file: string): Promise<ApprovalDecision[] | string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    return `Cannot read the decisions in '${file}': ${error instanceof Error ? error.message : String(error)}. Give a JSON array such as [{"callId": "refund", "decision": "approve"}].`;
  }
  if (!Array.isArray(parsed)) return `The decisions in '${file}' are not a JSON array.`;
  for (const [index, entry] of (parsed as unknown[]).entries()) {
    const decision = entry as { callId?: unknown; decision?: unknown; args?: unknown };
    if (typeof decision?.callId !== 'string' || !kinds.has(String(decision.decision)))
      return `Decision ${index + 1} in '${file}' needs a "callId" (a call id or a tool's name) and a "decision" of approve, reject or edit.`;
    if (decision.decision === 'edit' && decision.args === undefined)
      return `Decision ${index + 1} in '${file}' edits a call: give the "args" it runs with.`;
  }
  return parsed as ApprovalDecision[];
}
