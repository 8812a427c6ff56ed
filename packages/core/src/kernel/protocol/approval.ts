/** What an approval check is told about the call it decides on. */
export interface ApprovalContext {
  /** The agent whose model asked for the call. */
  readonly agentName: string;
  readonly toolName: string;
  readonly callId: string;
  /** The run's session. */
  readonly session: string;
}

/**
 * Whether a call must be approved by a person before it runs: always (`true`), never (`false`),
 * or decided from its arguments and context.
 */
export type NeedsApproval<Input> =
  boolean | ((args: Input, context: ApprovalContext) => boolean | Promise<boolean>);

/**
 * What waits for approval: a tool call, a handoff, a call of an agent used as a tool, or a
 * workflow's approval step.
 */
export type ApprovalKind = 'tool' | 'handoff' | 'delegation' | 'workflow_step';

/** A call the run stopped for: it runs only once a person approves it. */
export interface PendingApproval {
  readonly callId: string;
  readonly toolName: string;
  readonly kind: ApprovalKind;
  /** The agent that asked for it. */
  readonly agent: string;
  /** The arguments the model gave (parsed JSON). */
  readonly args: unknown;
}

/** A person's decision on a pending call. */
export type ApprovalDecision =
  | {
      readonly callId: string;
      readonly decision: 'approve';
      readonly by?: string;
      readonly reason?: string;
    }
  | {
      readonly callId: string;
      readonly decision: 'reject';
      readonly by?: string;
      /** Told to the model as why the call was refused. */
      readonly reason?: string;
    }
  | {
      readonly callId: string;
      readonly decision: 'edit';
      /** The arguments the call runs with instead. */
      readonly args: unknown;
      readonly by?: string;
      readonly reason?: string;
    };

/** The check a tool or handoff keeps: undefined when it never needs approval. */
export type ApprovalCheck = (args: unknown, context: ApprovalContext) => Promise<boolean>;

/** Normalises a `needsApproval` option into a check (or none). */
export function approvalCheck<Input>(
  needsApproval: NeedsApproval<Input> | undefined,
): ApprovalCheck | undefined {
  if (needsApproval === undefined || needsApproval === false) return undefined;
  if (needsApproval === true) return () => Promise.resolve(true);
  return async (args, context) => (await needsApproval(args as Input, context)) === true;
}
