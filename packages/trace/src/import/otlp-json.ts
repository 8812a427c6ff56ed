import type { Evaluation } from '@agent-trace/core';
import { evaluationEvent, semconv } from '../otlp/semconv.js';
import { spanKindOf, type ForeignSpan } from './foreign-span.js';

/** An OTLP/JSON attribute value: one of its typed fields. */
interface AnyValue {
  readonly stringValue?: string;
  readonly boolValue?: boolean;
  readonly intValue?: string | number;
  readonly doubleValue?: number;
  readonly arrayValue?: { readonly values?: readonly AnyValue[] };
  readonly kvlistValue?: { readonly values?: readonly KeyValue[] };
  readonly bytesValue?: string;
}

interface KeyValue {
  readonly key: string;
  readonly value?: AnyValue;
}

interface OtlpSpan {
  readonly traceId?: string;
  readonly spanId?: string;
  readonly parentSpanId?: string;
  readonly name?: string;
  readonly kind?: number | string;
  readonly startTimeUnixNano?: string | number;
  readonly endTimeUnixNano?: string | number;
  readonly attributes?: readonly KeyValue[];
  readonly status?: { readonly code?: number | string; readonly message?: string };
  readonly events?: ReadonlyArray<{
    readonly timeUnixNano?: string | number;
    readonly name?: string;
    readonly attributes?: readonly KeyValue[];
  }>;
}

interface OtlpLogRecord {
  readonly timeUnixNano?: string | number;
  readonly eventName?: string;
  readonly attributes?: readonly KeyValue[];
  readonly traceId?: string;
  readonly spanId?: string;
}

interface ExportRequest {
  readonly resourceSpans?: ReadonlyArray<{
    readonly resource?: { readonly attributes?: readonly KeyValue[] };
    readonly scopeSpans?: ReadonlyArray<{ readonly spans?: readonly OtlpSpan[] }>;
  }>;
  /** A logs request (the file exporter writes each signal's requests as lines). */
  readonly resourceLogs?: ReadonlyArray<{
    readonly scopeLogs?: ReadonlyArray<{ readonly logRecords?: readonly OtlpLogRecord[] }>;
  }>;
}

/** Bad OTLP JSON input: what failed, where, and what the file should hold. */
export class OtlpJsonError extends Error {
  override readonly name = 'OtlpJsonError';

  /** @param line - the file's line that is not JSON (1-based) */
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/**
 * The spans of an OTLP/JSON file, as the OpenTelemetry Collector's file exporter writes it: one
 * `ExportTraceServiceRequest` per line (a whole file holding one request is read too). Ids are
 * hex, as OTLP/JSON encodes them; base64 ids (protobuf's JSON mapping) are turned into hex.
 *
 * @param source - the file's name, for errors
 * @param options - `onBadLine`: told each line that is not JSON (a line cut short, a stray one),
 *   which is then skipped and the rest read; without it, such a line fails the whole file
 */
export function spansFromOtlpJson(
  textOfFile: string,
  source = 'the OTLP JSON',
  options: { readonly onBadLine?: (problem: OtlpJsonError) => void } = {},
): ForeignSpan[] {
  return spansOf(requestsOf(textOfFile, source, options));
}

/**
 * What an OTLP/JSON file holds that an import reads, parsed once: its spans (see
 * {@link spansFromOtlpJson}) and its evaluation events (see {@link evaluationsFromOtlpJson}).
 */
export function readOtlpJson(
  textOfFile: string,
  source = 'the OTLP JSON',
  options: { readonly onBadLine?: (problem: OtlpJsonError) => void } = {},
): { spans: ForeignSpan[]; evaluations: Evaluation[] } {
  const requests = requestsOf(textOfFile, source, options);
  return { spans: spansOf(requests), evaluations: evaluationsOf(requests) };
}

function spansOf(requests: readonly ExportRequest[]): ForeignSpan[] {
  return requests.flatMap(request =>
    (request.resourceSpans ?? []).flatMap(resourceSpans => {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      const service =
        typeof resource['service.name'] === 'string' ? resource['service.name'] : undefined;
      return (resourceSpans.scopeSpans ?? []).flatMap(scope =>
        (scope.spans ?? []).map(span => foreignSpan(span, service)),
      );
    }),
  );
}

/**
 * The evaluation events of an OTLP/JSON file (`gen_ai.evaluation.result` log records, as an
 * eval's export sends them): each score with the span it judges. Other log records are left.
 */
export function evaluationsFromOtlpJson(
  textOfFile: string,
  source = 'the OTLP JSON',
  options: { readonly onBadLine?: (problem: OtlpJsonError) => void } = {},
): Evaluation[] {
  return evaluationsOf(requestsOf(textOfFile, source, options));
}

function evaluationsOf(requests: readonly ExportRequest[]): Evaluation[] {
  const found: Evaluation[] = [];
  for (const request of requests)
    for (const resourceLogs of request.resourceLogs ?? [])
      for (const scope of resourceLogs.scopeLogs ?? [])
        for (const record of scope.logRecords ?? []) {
          const evaluation = evaluationOf(record);
          if (evaluation !== undefined) found.push(evaluation);
        }
  return found;
}

function evaluationOf(record: OtlpLogRecord): Evaluation | undefined {
  if (record.eventName !== evaluationEvent) return undefined;
  const attributes = attributesOf(record.attributes);
  const name = attributes[semconv.evaluationName];
  const score = attributes[semconv.evaluationScoreValue];
  const traceId = hexId(record.traceId);
  const spanId = hexId(record.spanId);
  if (typeof name !== 'string' || typeof score !== 'number') return undefined;
  if (traceId === undefined || spanId === undefined) return undefined;
  const label = attributes[semconv.evaluationScoreLabel];
  const explanation = attributes[semconv.evaluationExplanation];
  const responseId = attributes[semconv.responseId];
  return {
    name,
    score,
    ...(label === 'pass' || label === 'fail' ? { label } : {}),
    ...(typeof explanation === 'string' ? { explanation } : {}),
    ...(typeof responseId === 'string' ? { responseId } : {}),
    traceId,
    spanId,
    timeMs: nanosToMs(record.timeUnixNano),
  };
}

/** The export requests of a file: one per line, or the whole file as one. */
function requestsOf(
  textOfFile: string,
  source: string,
  options: { readonly onBadLine?: (problem: OtlpJsonError) => void },
): ExportRequest[] {
  const trimmed = textOfFile.trim();
  if (trimmed === '') return [];
  const requests: ExportRequest[] = [];
  const lines =
    trimmed.startsWith('{') && !trimmed.includes('\n{') ? [trimmed] : trimmed.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      requests.push(JSON.parse(line) as ExportRequest);
    } catch (error) {
      const problem = new OtlpJsonError(
        `${source}:${lines.length === 1 ? 1 : index + 1}: not JSON (${(error as Error).message}). An OTLP JSON file holds one ExportTraceServiceRequest ({"resourceSpans": [...]}) per line, as the Collector's file exporter writes it.`,
        lines.length === 1 ? 1 : index + 1,
      );
      if (options.onBadLine === undefined) throw problem;
      options.onBadLine(problem);
    }
  });
  return requests;
}

function foreignSpan(span: OtlpSpan, service: string | undefined): ForeignSpan {
  const parent = hexId(span.parentSpanId);
  const errorCode = span.status?.code === 2 || span.status?.code === 'STATUS_CODE_ERROR';
  const kind = spanKindOf(span.kind);
  return {
    traceId: hexId(span.traceId) ?? '',
    spanId: hexId(span.spanId) ?? '',
    ...(parent === undefined || /^0+$/.test(parent) ? {} : { parentSpanId: parent }),
    name: span.name ?? '',
    startMs: nanosToMs(span.startTimeUnixNano),
    endMs: nanosToMs(span.endTimeUnixNano),
    attributes: attributesOf(span.attributes),
    ...(errorCode ? { error: span.status?.message ?? '' } : {}),
    ...(service === undefined ? {} : { service }),
    ...(kind === undefined ? {} : { kind }),
    ...(span.events === undefined || span.events.length === 0
      ? {}
      : {
          events: span.events.map(event => ({
            name: event.name ?? '',
            timeMs: nanosToMs(event.timeUnixNano),
            attributes: attributesOf(event.attributes),
          })),
        }),
  };
}

/** OTLP/JSON key-values as a plain record. */
function attributesOf(list: readonly KeyValue[] | undefined): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) attributes[key] = valueOf(value);
  return attributes;
}

function valueOf(value: AnyValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue !== undefined) return attributesOf(value.kvlistValue.values);
  return value.bytesValue;
}

/** An id as hex: OTLP/JSON writes hex; protobuf's JSON mapping writes base64. */
function hexId(id: string | undefined): string | undefined {
  if (id === undefined || id === '') return undefined;
  if (/^[0-9a-f]+$/i.test(id) && (id.length === 16 || id.length === 32)) return id.toLowerCase();
  return Buffer.from(id, 'base64').toString('hex');
}

function nanosToMs(nanos: string | number | undefined): number {
  if (nanos === undefined) return 0;
  return typeof nanos === 'number' ? nanos / 1e6 : Number(BigInt(nanos) / 1000n) / 1000;
}
