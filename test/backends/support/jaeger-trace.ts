/**
 * A trace read back from Jaeger's HTTP query API, and what differs between it and the spans the
 * exporter sent: a span missing or extra, a parent, a name, a kind, an attribute, an event, a
 * resource attribute, an error not marked. The backend tests assert there is nothing.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { SpanKind, SpanStatusCode, type AttributeValue } from '@opentelemetry/api';

interface JaegerTag {
  readonly key: string;
  readonly type: string;
  readonly value: unknown;
}

/** A span as Jaeger's query API (`/api/traces/{id}`) returns it. */
export interface JaegerSpan {
  readonly traceID: string;
  readonly spanID: string;
  readonly operationName: string;
  readonly references: ReadonlyArray<{ refType: string; traceID: string; spanID: string }>;
  readonly startTime: number;
  readonly duration: number;
  readonly tags: readonly JaegerTag[];
  readonly logs: ReadonlyArray<{ timestamp: number; fields: readonly JaegerTag[] }>;
  readonly processID: string;
}

/** One trace of Jaeger's answer. */
export interface JaegerTrace {
  readonly traceID: string;
  readonly spans: readonly JaegerSpan[];
  readonly processes: Readonly<Record<string, { serviceName: string; tags: readonly JaegerTag[] }>>;
}

/**
 * Reads a trace from Jaeger's query API, asking again until it holds `spans` spans and the same
 * number twice in a row (the collector batches), or `withinMs` passed: then it answers what it has.
 */
export async function readJaegerTrace(
  query: string,
  traceId: string,
  spans: number,
  withinMs = 15_000,
): Promise<JaegerTrace | undefined> {
  const deadline = Date.now() + withinMs;
  let last: JaegerTrace | undefined;
  for (;;) {
    const answer = await fetch(`${query}/api/traces/${traceId}`);
    const body = (await answer.json()) as { data?: JaegerTrace[] | null };
    const found = answer.ok ? body.data?.[0] : undefined;
    if (
      found !== undefined &&
      found.spans.length >= spans &&
      found.spans.length === last?.spans.length
    )
      return found;
    last = found;
    if (Date.now() > deadline) return last;
    await new Promise(resolve => setTimeout(resolve, 150));
  }
}

/** An attribute value as Jaeger shows it: arrays become their JSON, the rest stays as it is. */
function shown(value: AttributeValue | undefined): unknown {
  return Array.isArray(value) ? JSON.stringify(value) : value;
}

const kinds: Record<SpanKind, string> = {
  [SpanKind.INTERNAL]: 'internal',
  [SpanKind.SERVER]: 'server',
  [SpanKind.CLIENT]: 'client',
  [SpanKind.PRODUCER]: 'producer',
  [SpanKind.CONSUMER]: 'consumer',
};

function tagsOf(tags: readonly JaegerTag[]): Map<string, unknown> {
  return new Map(tags.map(tag => [tag.key, tag.value]));
}

function attributeProblems(
  where: string,
  expected: Readonly<Record<string, AttributeValue | undefined>>,
  got: Map<string, unknown>,
): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(expected)) {
    if (value === undefined) continue;
    if (!got.has(key)) problems.push(`${where}: attribute ${key} is missing`);
    else if (JSON.stringify(got.get(key)) !== JSON.stringify(shown(value)))
      problems.push(
        `${where}: attribute ${key} is ${JSON.stringify(got.get(key))}, sent ${JSON.stringify(shown(value))}`,
      );
  }
  return problems;
}

function spanProblems(sent: ReadableSpan, stored: JaegerSpan, trace: JaegerTrace): string[] {
  const where = `span ${sent.name} (${sent.spanContext().spanId})`;
  const problems: string[] = [];
  if (stored.operationName !== sent.name) problems.push(`${where}: named ${stored.operationName}`);
  const parent = stored.references.find(reference => reference.refType === 'CHILD_OF')?.spanID;
  const sentParent = sent.parentSpanContext?.spanId;
  if (parent !== sentParent)
    problems.push(`${where}: its parent is ${parent ?? 'none'}, sent ${sentParent ?? 'none'}`);
  const tags = tagsOf(stored.tags);
  if (tags.get('span.kind') !== kinds[sent.kind] && sent.kind !== SpanKind.INTERNAL)
    problems.push(`${where}: kind ${String(tags.get('span.kind'))}, sent ${kinds[sent.kind]}`);
  problems.push(...attributeProblems(where, sent.attributes, tags));
  if (sent.status.code === SpanStatusCode.ERROR && tags.get('error') !== true)
    problems.push(`${where}: an error, not marked as one (no error=true tag)`);
  for (const event of sent.events) {
    const log = stored.logs.find(each => tagsOf(each.fields).get('event') === event.name);
    if (log === undefined) problems.push(`${where}: event ${event.name} is missing`);
    else
      problems.push(
        ...attributeProblems(
          `${where} event ${event.name}`,
          event.attributes ?? {},
          tagsOf(log.fields),
        ),
      );
  }
  const process = trace.processes[stored.processID];
  const resource = sent.resource.attributes;
  const processTags = tagsOf(process?.tags ?? []);
  processTags.set('service.name', process?.serviceName);
  problems.push(...attributeProblems(`${where} resource`, resource, processTags));
  return problems;
}

/** What differs between the spans sent and the trace Jaeger stored; empty when nothing does. */
export function jaegerProblems(
  sent: readonly ReadableSpan[],
  stored: JaegerTrace | undefined,
): string[] {
  if (stored === undefined) return [`Jaeger holds no trace of the ${sent.length} spans sent`];
  const byId = new Map(stored.spans.map(span => [span.spanID, span]));
  const problems: string[] = [];
  for (const span of sent) {
    const found = byId.get(span.spanContext().spanId);
    if (found === undefined)
      problems.push(`span ${span.name} (${span.spanContext().spanId}) is missing`);
    else problems.push(...spanProblems(span, found, stored));
  }
  const sentIds = new Set(sent.map(span => span.spanContext().spanId));
  for (const span of stored.spans)
    if (!sentIds.has(span.spanID))
      problems.push(`span ${span.operationName} (${span.spanID}) was never sent`);
  return problems;
}
