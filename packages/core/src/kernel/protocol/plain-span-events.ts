/** The trace events of plain spans: part of the one `TraceEvent` schema. */
import { z } from 'zod';
import { envelope, TraceError } from './trace-envelope.js';

/**
 * A span of another system that is none of agent-trace's kinds — an HTTP request, a database
 * query, a framework's own step — kept in the tree as its system named it, with its attributes.
 * agent-trace's own runs never write one; `agent-trace import` does, for the spans it cannot map.
 * The envelope's `agent` is the agent it ran under (the run's name outside any agent).
 */
export const SpanStartEvent = z.object({
  ...envelope,
  event: z.literal('span_start'),
  /** The span's name in its system, e.g. `GET /weather`. */
  name: z.string(),
  /** Its OpenTelemetry kind, when it is not `internal`. */
  span_kind: z.enum(['server', 'client', 'producer', 'consumer']).optional(),
  /** Its attributes, as its system recorded them. */
  attributes: z.record(z.string(), z.unknown()).optional(),
  /** The service that made it, when the trace spans several. */
  service: z.string().optional(),
});

export const SpanEndEvent = z.object({
  ...envelope,
  event: z.literal('span_end'),
  name: z.string(),
  duration_ms: z.number().nonnegative(),
  /** Set when the span's status is an error. */
  error: TraceError.optional(),
});
