import protobuf from 'protobufjs';

/*
 * The subset of the OTLP protocol (opentelemetry-proto, Apache-2.0) a trace receiver needs: the
 * export request and what it contains. Field numbers and names follow opentelemetry-proto v1.
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

let request: protobuf.Type | undefined;

/** The `ExportTraceServiceRequest` message type, built once. */
export function exportTraceServiceRequest(): protobuf.Type {
  if (request === undefined) {
    const root = new protobuf.Root();
    for (const source of [common, resource, trace, collector])
      protobuf.parse(source, root, { keepCase: true });
    request = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
  }
  return request;
}
