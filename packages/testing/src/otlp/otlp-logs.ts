import { exportLogsServiceRequest } from './otlp-proto.js';
import { attributesOf, hex, nanos, type KeyValue, type Uint64 } from './otlp-values.js';

/** A log record (an event, when it has a name) as the receiver decoded it. */
export interface ReceivedLog {
  /** The event's name, e.g. `gen_ai.evaluation.result`; empty for a plain log. */
  readonly eventName: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** The span it was emitted in the context of (hex), empty when none. */
  readonly traceId: string;
  readonly spanId: string;
  readonly timeUnixNano: bigint;
  /** The resource's attributes (`service.name`, …). */
  readonly resource: Readonly<Record<string, unknown>>;
}

interface DecodedLogsRequest {
  resource_logs?: {
    resource?: { attributes?: KeyValue[] };
    scope_logs?: {
      log_records?: {
        time_unix_nano?: Uint64;
        attributes?: KeyValue[];
        trace_id?: Uint8Array;
        span_id?: Uint8Array;
        event_name?: string;
      }[];
    }[];
  }[];
}

/** Decodes an OTLP `ExportLogsServiceRequest` into log records. */
export function decodeLogsRequest(bytes: Uint8Array): ReceivedLog[] {
  const decoded = exportLogsServiceRequest().decode(bytes) as unknown as DecodedLogsRequest;
  const received: ReceivedLog[] = [];
  for (const resourceLogs of decoded.resource_logs ?? []) {
    const resource = attributesOf(resourceLogs.resource?.attributes);
    for (const scopeLogs of resourceLogs.scope_logs ?? [])
      for (const record of scopeLogs.log_records ?? [])
        received.push({
          eventName: record.event_name ?? '',
          attributes: attributesOf(record.attributes),
          traceId: hex(record.trace_id),
          spanId: hex(record.span_id),
          timeUnixNano: nanos(record.time_unix_nano),
          resource,
        });
  }
  return received;
}
