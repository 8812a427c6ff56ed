import { ownAttributes } from '../otlp/semconv.js';

/**
 * A span read back from an OpenTelemetry backend (an OTLP JSON file, Jaeger), in one shape
 * whatever its source: ids in hex, times in milliseconds, attributes as plain values.
 */
export interface ForeignSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Absent for a root span. */
  readonly parentSpanId?: string;
  readonly name: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** Set when the span's status is an error, with its message. */
  readonly error?: string;
  /** The service that made it (`service.name` of its resource or process). */
  readonly service?: string;
  /** Its OpenTelemetry kind; absent for `internal` (or unspecified). */
  readonly kind?: ForeignSpanKind;
  /** Its span events (a Jaeger span's logs), when it has any. */
  readonly events?: readonly ForeignSpanEvent[];
}

/** A span event: its name, when it happened, its attributes. */
export interface ForeignSpanEvent {
  readonly name: string;
  readonly timeMs: number;
  readonly attributes: Readonly<Record<string, unknown>>;
}

/** The span kinds other than `internal`. */
export type ForeignSpanKind = 'server' | 'client' | 'producer' | 'consumer';

const kinds: readonly (ForeignSpanKind | undefined)[] = [
  undefined,
  undefined,
  'server',
  'client',
  'producer',
  'consumer',
];

/**
 * A span kind as OTLP (its number, or `SPAN_KIND_CLIENT`) or Jaeger (`client`) writes it; undefined
 * for `internal`, unspecified or unknown.
 */
export function spanKindOf(value: unknown): ForeignSpanKind | undefined {
  if (typeof value === 'number') return kinds[value];
  if (typeof value !== 'string') return undefined;
  const name = value.replace(/^SPAN_KIND_/, '').toLowerCase();
  return kinds.find(kind => kind === name);
}

/** A string attribute, if the span has one. */
export function text(span: ForeignSpan, key: string): string | undefined {
  const value = span.attributes[key];
  return typeof value === 'string' ? value : undefined;
}

/** A number attribute (int or double), if the span has one. */
export function count(span: ForeignSpan, key: string): number | undefined {
  const value = span.attributes[key];
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)))
    return Number(value);
  return undefined;
}

/** An attribute holding JSON text (message content, tool definitions), parsed; undefined if not JSON. */
export function json(span: ForeignSpan, key: string): unknown {
  const value = span.attributes[key];
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Orders spans as they started: by start time and, at the same time, by the seq agent-trace
 * recorded on its own spans (`agent_trace.seq`), those before the spans without one. A backend
 * answers a trace's spans in an order of its own, and spans of a fast run share their
 * millisecond, so the time alone would put a model call before the tool call it followed.
 */
export function byStart(a: ForeignSpan, b: ForeignSpan): number {
  if (a.startMs !== b.startMs) return a.startMs - b.startMs;
  const seqA = a.attributes[ownAttributes.seq];
  const seqB = b.attributes[ownAttributes.seq];
  const known = (typeof seqA === 'number' ? 0 : 1) - (typeof seqB === 'number' ? 0 : 1);
  if (known !== 0 || typeof seqA !== 'number' || typeof seqB !== 'number') return known;
  return seqA - seqB;
}
