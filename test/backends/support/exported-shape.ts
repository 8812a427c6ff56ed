/**
 * Records an agent shape into a JSONL file and, at the same time, exports it over OTLP to a real
 * backend and to memory: the spans in memory are what was sent, to compare the backend's with.
 */
import { randomIds, type IdGenerator, type TraceEvent, type TraceSink } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import { otlpSink, type OtlpSinkOptions } from '@agent-trace/trace/otlp';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a shape's recording left: its JSONL file, its events, and the spans sent. */
export interface ExportedShape {
  readonly file: string;
  readonly events: readonly TraceEvent[];
  readonly traceId: string;
  /** The spans the exporter made of the run, as it sent them to the backend. */
  readonly sent: readonly ReadableSpan[];
}

/** Records a shape: `record` runs it into the sinks it is given, with the ids it is given. */
export type RecordShape = (sinks: readonly TraceSink[], ids: IdGenerator) => Promise<unknown>;

/** Records `record` to JSONL and exports it with `otlp` options (and to memory, the same spans). */
export async function exportShape(
  name: string,
  record: RecordShape,
  otlp: OtlpSinkOptions,
): Promise<ExportedShape> {
  const file = join(mkdtempSync(join(tmpdir(), `agent-trace-backend-${name}-`)), `${name}.jsonl`);
  const jsonl = jsonlSink(file);
  const memory = new InMemorySpanExporter();
  const shared = { captureContent: true, serviceName: `agent-trace-${name}` } as const;
  const backend = otlpSink({ ...shared, ...otlp });
  // The same mapping, kept in memory: every option but where the spans go.
  const { endpoint: _endpoint, protocol: _protocol, exporter: _exporter, ...mapping } = otlp;
  const kept = otlpSink({ ...shared, ...mapping, exporter: memory });
  await record([jsonl, backend, kept], randomIds);
  await jsonl.close();
  await Promise.all([backend.shutdown(), kept.forceFlush()]);
  const finished = memory.getFinishedSpans();
  await kept.shutdown();
  const stats = backend.stats;
  if (stats.failed > 0 || stats.dropped > 0)
    throw new Error(`the export to the backend failed: ${JSON.stringify(stats)}`);
  const events = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map(line => JSON.parse(line) as TraceEvent);
  const traceId = events[0]!.trace_id;
  const sent = finished.filter(span => span.spanContext().traceId === traceId);
  return { file, events, traceId, sent };
}
