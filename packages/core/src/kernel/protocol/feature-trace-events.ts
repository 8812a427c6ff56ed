/** The trace events features write: part of the one `TraceEvent` schema. */
import { z } from 'zod';
import { envelope } from './trace-envelope.js';

/** A feature's name, as its events and refusals carry it: lower case, digits, `-`, `_`, `.`. */
export const featureNamePattern = /^[a-z0-9][a-z0-9._-]*$/;

/**
 * An event of a feature's own (a scrub that counted what it removed, a quota that was used up):
 * `feature` is the feature's name, `name` its own event name; together they are the event's
 * namespaced name (`scrub-emails.scrubbed`). Written under the span the feature's hook was called
 * in, read by `replay`, the viewer, OTLP, SQL and a rerun like the trace's own events.
 */
export const FeatureEvent = z.object({
  ...envelope,
  event: z.literal('feature'),
  feature: z.string().regex(featureNamePattern),
  name: z.string().regex(featureNamePattern),
  /** What the feature says of it: JSON fields of its choosing. */
  data: z.record(z.string(), z.unknown()).optional(),
});

/** What a feature's transform changed: a model request, a model answer, a tool call's result. */
export const transformTargets = ['request', 'answer', 'tool_result'] as const;

/**
 * A feature changed what the loop sends or reads: the request to a model call (the `llm_start`
 * after it records what was sent), the model's answer before the loop read it (the `llm_end`
 * before it keeps what the model said), or what the model reads of a tool call's result (its
 * `tool_end` keeps what the tool returned). Written only when something changed, under the
 * agent's span (a tool result's: the call's).
 */
export const TransformEvent = z.object({
  ...envelope,
  event: z.literal('transform'),
  /** The feature whose transform it was. */
  feature: z.string(),
  target: z.enum(transformTargets),
  /** The agent's model call the request or answer is of (1-based). */
  step: z.number().int().positive().optional(),
  /** The tool call whose result changed, and its tool. */
  call_id: z.string().optional(),
  tool: z.string().optional(),
  /**
   * What changed: of a request, its `instructions`, `messages` or `tools`; of an answer, its
   * `text` or `tool_calls`; of a tool result, its `content`.
   */
  changed: z.array(z.string()).min(1),
  /** A tool result's content as the model reads it after the transform. */
  content: z.string().optional(),
  /**
   * Of a request whose instructions the transform changed: the instructions as they are after it
   * (the last transform's are what the model was sent), so a rerun can say what changed in them.
   */
  instructions: z.string().optional(),
  /** Of a request or an answer: the hash of what it became, so a different change shows. */
  hash: z.string().optional(),
});
