import { spanKindOf, type ForeignSpan, type ForeignSpanEvent } from './foreign-span.js';

/** A span as Jaeger's query API (`/api/traces`) returns it. */
interface JaegerSpan {
  readonly traceID: string;
  readonly spanID: string;
  readonly operationName: string;
  readonly references?: ReadonlyArray<{ readonly refType: string; readonly spanID: string }>;
  /** Microseconds since the epoch. */
  readonly startTime: number;
  /** Microseconds. */
  readonly duration: number;
  readonly tags?: ReadonlyArray<{
    readonly key: string;
    readonly type?: string;
    readonly value: unknown;
  }>;
  readonly processID?: string;
  /** The span's events: each field is an attribute, `event` its name. */
  readonly logs?: ReadonlyArray<{
    readonly timestamp: number;
    readonly fields?: ReadonlyArray<{ readonly key: string; readonly value: unknown }>;
  }>;
}

/** What Jaeger's query API answers: traces, each with its spans and the processes that made them. */
export interface JaegerResponse {
  readonly data?: ReadonlyArray<{
    readonly traceID: string;
    readonly spans: readonly JaegerSpan[];
    readonly processes?: Readonly<Record<string, { readonly serviceName: string }>>;
  }>;
  readonly errors?: ReadonlyArray<{ readonly code?: number; readonly msg?: string }> | null;
}

/** Where to read from a Jaeger query service: one trace by id, or a service's traces in a time range. */
export type JaegerQuery =
  | { readonly url: string; readonly traceId: string }
  | {
      readonly url: string;
      readonly service: string;
      /** The range's start, in ms since the epoch. */
      readonly startMs: number;
      /** @defaultValue now */
      readonly endMs?: number;
      /** @defaultValue 20 */
      readonly limit?: number;
      readonly operation?: string;
    };

/** A Jaeger query service that could not be read: what was asked, what came back, what to do. */
export class JaegerError extends Error {
  override readonly name = 'JaegerError';
}

/**
 * The spans Jaeger's HTTP query API (`/api/traces`) returns: one trace by id, or the traces of a
 * service in a time range. Tags become attributes (`otel.status_code` `ERROR` or `error` marks
 * an error), the `CHILD_OF` reference the parent, and the process its service.
 */
export async function fetchJaegerSpans(
  query: JaegerQuery,
  fetchImpl: typeof fetch = fetch,
): Promise<ForeignSpan[]> {
  const base = query.url.replace(/\/+$/, '');
  const address =
    'traceId' in query
      ? `${base}/api/traces/${encodeURIComponent(query.traceId)}`
      : `${base}/api/traces?${new URLSearchParams({
          service: query.service,
          start: String(Math.floor(query.startMs * 1000)),
          end: String(Math.floor((query.endMs ?? Date.now()) * 1000)),
          limit: String(query.limit ?? 20),
          ...(query.operation === undefined ? {} : { operation: query.operation }),
        }).toString()}`;
  let response: Response;
  try {
    response = await fetchImpl(address, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new JaegerError(
      `Could not reach Jaeger at ${address}: ${(error as Error).message}. Check --jaeger (the query service, e.g. http://localhost:16686).`,
    );
  }
  const body = await response.text();
  if (!response.ok)
    throw new JaegerError(
      `Jaeger answered ${response.status} for ${address}: ${body.slice(0, 200)}${response.status === 404 ? ' (no such trace: check the trace id)' : ''}`,
    );
  let parsed: JaegerResponse;
  try {
    parsed = JSON.parse(body) as JaegerResponse;
  } catch {
    throw new JaegerError(`Jaeger's answer for ${address} is not JSON: ${body.slice(0, 120)}`);
  }
  return spansFromJaeger(parsed);
}

const jaegerOwnTags = [
  'span.kind',
  'otel.status_code',
  'otel.status_description',
  'error',
  'internal.span.format',
];

/** The spans of a Jaeger query API response. */
export function spansFromJaeger(response: JaegerResponse): ForeignSpan[] {
  const problems = (response.errors ?? []).map(each => each.msg ?? String(each.code));
  if (problems.length > 0 && (response.data ?? []).length === 0)
    throw new JaegerError(`Jaeger reported: ${problems.join('; ')}`);
  return (response.data ?? []).flatMap(trace =>
    trace.spans.map(span => {
      const attributes: Record<string, unknown> = {};
      for (const tag of span.tags ?? []) attributes[tag.key] = tag.value;
      const parent = span.references?.find(reference => reference.refType === 'CHILD_OF');
      const service =
        span.processID === undefined ? undefined : trace.processes?.[span.processID]?.serviceName;
      const failed = attributes['otel.status_code'] === 'ERROR' || attributes.error === true;
      const status = attributes['otel.status_description'];
      const kind = spanKindOf(attributes['span.kind']);
      // Tags Jaeger adds for the span's kind and status: read above, not the span's attributes.
      for (const key of jaegerOwnTags) delete attributes[key];
      return {
        traceId: span.traceID,
        spanId: span.spanID,
        ...(parent === undefined ? {} : { parentSpanId: parent.spanID }),
        name: span.operationName,
        startMs: span.startTime / 1000,
        endMs: (span.startTime + span.duration) / 1000,
        attributes,
        ...(failed ? { error: typeof status === 'string' ? status : '' } : {}),
        ...(service === undefined ? {} : { service }),
        ...(kind === undefined ? {} : { kind }),
        ...(span.logs === undefined || span.logs.length === 0
          ? {}
          : { events: span.logs.map(eventOfLog) }),
      };
    }),
  );
}

/** A Jaeger span's log as the span event it was: its `event` field is the name. */
function eventOfLog(log: NonNullable<JaegerSpan['logs']>[number]): ForeignSpanEvent {
  const attributes: Record<string, unknown> = {};
  for (const field of log.fields ?? []) attributes[field.key] = field.value;
  const name = typeof attributes.event === 'string' ? attributes.event : '';
  delete attributes.event;
  return { name, timeMs: log.timestamp / 1000, attributes };
}
