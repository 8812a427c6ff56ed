import protobuf from 'protobufjs';

/*
 * The subset of the OTLP protocol (opentelemetry-proto, Apache-2.0) a trace, metrics and logs receiver
 * needs: the export requests and what they contain (metrics: sums, gauges and explicit-bucket
 * histograms). Field numbers and names follow opentelemetry-proto v1.
 */
const common = `syntax = "proto3";
package opentelemetry.proto.common.v1;
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7; } }
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }`;

const resource = `syntax = "proto3";
package opentelemetry.proto.resource.v1;
message Resource { repeated .opentelemetry.proto.common.v1.KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }`;

const trace = `syntax = "proto3";
package opentelemetry.proto.trace.v1;
message ResourceSpans { .opentelemetry.proto.resource.v1.Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message ScopeSpans { .opentelemetry.proto.common.v1.InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; fixed32 flags = 16;
  string name = 5; SpanKind kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated .opentelemetry.proto.common.v1.KeyValue attributes = 9; uint32 dropped_attributes_count = 10;
  repeated Event events = 11; uint32 dropped_events_count = 12; repeated Link links = 13; uint32 dropped_links_count = 14;
  Status status = 15;
  enum SpanKind { SPAN_KIND_UNSPECIFIED = 0; SPAN_KIND_INTERNAL = 1; SPAN_KIND_SERVER = 2; SPAN_KIND_CLIENT = 3; SPAN_KIND_PRODUCER = 4; SPAN_KIND_CONSUMER = 5; }
  message Event { fixed64 time_unix_nano = 1; string name = 2; repeated .opentelemetry.proto.common.v1.KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
  message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated .opentelemetry.proto.common.v1.KeyValue attributes = 4; uint32 dropped_attributes_count = 5; fixed32 flags = 6; }
}
message Status { reserved 1; string message = 2; StatusCode code = 3; enum StatusCode { STATUS_CODE_UNSET = 0; STATUS_CODE_OK = 1; STATUS_CODE_ERROR = 2; } }`;

const collector = `syntax = "proto3";
package opentelemetry.proto.collector.trace.v1;
message ExportTraceServiceRequest { repeated .opentelemetry.proto.trace.v1.ResourceSpans resource_spans = 1; }`;

const metrics = `syntax = "proto3";
package opentelemetry.proto.metrics.v1;
message ResourceMetrics { .opentelemetry.proto.resource.v1.Resource resource = 1; repeated ScopeMetrics scope_metrics = 2; string schema_url = 3; }
message ScopeMetrics { .opentelemetry.proto.common.v1.InstrumentationScope scope = 1; repeated Metric metrics = 2; string schema_url = 3; }
message Metric {
  string name = 1; string description = 2; string unit = 3;
  oneof data { Gauge gauge = 5; Sum sum = 7; Histogram histogram = 9; }
}
message Gauge { repeated NumberDataPoint data_points = 1; }
message Sum { repeated NumberDataPoint data_points = 1; AggregationTemporality aggregation_temporality = 2; bool is_monotonic = 3; }
message Histogram { repeated HistogramDataPoint data_points = 1; AggregationTemporality aggregation_temporality = 2; }
enum AggregationTemporality { AGGREGATION_TEMPORALITY_UNSPECIFIED = 0; AGGREGATION_TEMPORALITY_DELTA = 1; AGGREGATION_TEMPORALITY_CUMULATIVE = 2; }
message NumberDataPoint {
  repeated .opentelemetry.proto.common.v1.KeyValue attributes = 7; fixed64 start_time_unix_nano = 2; fixed64 time_unix_nano = 3;
  oneof value { double as_double = 4; sfixed64 as_int = 6; } uint32 flags = 8;
}
message HistogramDataPoint {
  repeated .opentelemetry.proto.common.v1.KeyValue attributes = 9; fixed64 start_time_unix_nano = 2; fixed64 time_unix_nano = 3;
  fixed64 count = 4; optional double sum = 5; repeated fixed64 bucket_counts = 6; repeated double explicit_bounds = 7;
  uint32 flags = 10; optional double min = 11; optional double max = 12;
}`;

const metricsCollector = `syntax = "proto3";
package opentelemetry.proto.collector.metrics.v1;
message ExportMetricsServiceRequest { repeated .opentelemetry.proto.metrics.v1.ResourceMetrics resource_metrics = 1; }`;

const logs = `syntax = "proto3";
package opentelemetry.proto.logs.v1;
message ResourceLogs { .opentelemetry.proto.resource.v1.Resource resource = 1; repeated ScopeLogs scope_logs = 2; string schema_url = 3; }
message ScopeLogs { .opentelemetry.proto.common.v1.InstrumentationScope scope = 1; repeated LogRecord log_records = 2; string schema_url = 3; }
message LogRecord {
  fixed64 time_unix_nano = 1; fixed64 observed_time_unix_nano = 11; int32 severity_number = 2; string severity_text = 3;
  .opentelemetry.proto.common.v1.AnyValue body = 5; repeated .opentelemetry.proto.common.v1.KeyValue attributes = 6;
  uint32 dropped_attributes_count = 7; fixed32 flags = 8; bytes trace_id = 9; bytes span_id = 10; string event_name = 12;
}`;

const logsCollector = `syntax = "proto3";
package opentelemetry.proto.collector.logs.v1;
message ExportLogsServiceRequest { repeated .opentelemetry.proto.logs.v1.ResourceLogs resource_logs = 1; }`;

let root: protobuf.Root | undefined;

function otlpRoot(): protobuf.Root {
  if (root === undefined) {
    root = new protobuf.Root();
    for (const source of [
      common,
      resource,
      trace,
      collector,
      metrics,
      metricsCollector,
      logs,
      logsCollector,
    ])
      protobuf.parse(source, root, { keepCase: true });
  }
  return root;
}

/** The `ExportTraceServiceRequest` message type, built once. */
export function exportTraceServiceRequest(): protobuf.Type {
  return otlpRoot().lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
}

/** The `ExportMetricsServiceRequest` message type, built once. */
export function exportMetricsServiceRequest(): protobuf.Type {
  return otlpRoot().lookupType(
    'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest',
  );
}

/** The `ExportLogsServiceRequest` message type, built once. */
export function exportLogsServiceRequest(): protobuf.Type {
  return otlpRoot().lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');
}
