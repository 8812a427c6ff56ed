import { z } from 'zod';

/**
 * The trace schema's major version, written in every event's `v`. It changes only when a field is
 * removed, renamed or retyped, or a meaning changes: readers refuse a major they do not know.
 * New event kinds and new optional fields keep it (a minor change): readers skip what they do
 * not know, with a warning.
 */
export const TRACE_SCHEMA_VERSION = 1 as const;

/** Schema (major) versions this package can read. */
export const SUPPORTED_TRACE_SCHEMA_VERSIONS: readonly number[] = [1];

/** A string of `length` lower-case hex digits (W3C trace and span ids). */
export const hex = (length: number) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`), `expected ${length} lower-case hex digits`);

/** A failure as the trace records it: `type` is the error kind, e.g. `rate_limit`, `unknown_tool`. */
export const TraceError = z.object({
  type: z.string(),
  message: z.string(),
  /** The HTTP status the failure came with (a provider's answer), when it came from one. */
  status: z.number().int().optional(),
  /** For a call a feature refused (`type` `refused`): the feature's name. */
  feature: z.string().optional(),
  /** For a call a feature refused: the feature's own kind of refusal (`quota_exceeded`). */
  refusal: z.string().optional(),
});
export type TraceError = z.infer<typeof TraceError>;

/** The fields every event carries: its place in the run, its ids, its time and its agent. */
export const envelope = {
  /** Schema version. */
  v: z.literal(TRACE_SCHEMA_VERSION),
  /** 0-based, contiguous per run. */
  seq: z.number().int().nonnegative(),
  /**
   * The event's place in the order the run made its events (0-based, as `seq`), written only when
   * it is not `seq`: parts of a run that went on side by side (agents asked as tools at once,
   * parallel workflow steps) are written part by part, in call order, so that a trace does not
   * depend on which finished first, and `made` keeps the order things happened in, which a rerun
   * replays.
   */
  made: z.number().int().nonnegative().optional(),
  /**
   * On the first event of an agent's turn after it decided a step (the features' checks before a
   * model call, of the model's answer, of a round of tool calls): how many events the run had made
   * when it decided, written only when other parts' events came between (parts that went on side
   * by side). A rerun decides there.
   */
  decided_made: z.number().int().nonnegative().optional(),
  /** ISO-8601. */
  time: z.iso.datetime(),
  /** The run id. */
  run: z.string().min(1),
  session: z.string().min(1),
  trace_id: hex(32),
  span_id: hex(16),
  parent_span_id: hex(16).nullable(),
  /**
   * The agent the event belongs to (for run events: the entry agent, or the workflow of a workflow
   * run; for workflow events: the workflow).
   */
  agent: z.string(),
};
