import { SpanKind, type AttributeValue } from '@opentelemetry/api';
import type { TraceEventOf } from '@agent-trace/core';
import type { SpanAttributes } from './semconv.js';

const kinds = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
} as const;

/**
 * A plain span's head: the name, kind and attributes it had in the system that made it (read back
 * by `agent-trace import`), so an imported trace exports as it came. A value OpenTelemetry cannot
 * hold as it is (an object, a mixed array) is kept as its JSON.
 */
export function plainSpanHead(start: TraceEventOf<'span_start'>): {
  name: string;
  kind: SpanKind;
  attributes: SpanAttributes;
} {
  // Another system's names, not agent-trace's: not the names `SpanAttributes` lists.
  const attributes: Record<string, AttributeValue> = {};
  for (const [key, value] of Object.entries(start.attributes ?? {})) {
    const kept = attributeValue(value);
    if (kept !== undefined) attributes[key] = kept;
  }
  attributes['agent_trace.run_id'] = start.run;
  return {
    name: start.name,
    kind: start.span_kind === undefined ? SpanKind.INTERNAL : kinds[start.span_kind],
    attributes,
  };
}

function attributeValue(value: unknown): AttributeValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (Array.isArray(value)) {
    const types = new Set(value.map(item => typeof item));
    const [type] = types;
    if (
      types.size <= 1 &&
      (type === undefined || type === 'string' || type === 'number' || type === 'boolean')
    )
      return value as AttributeValue;
  }
  return JSON.stringify(value);
}
