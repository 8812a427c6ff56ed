/**
 * `@agent-trace/trace/import`: GenAI-convention spans from an OpenTelemetry backend back into
 * agent-trace traces — from an OTLP JSON file (the Collector's file exporter) or a Jaeger query
 * service.
 */
export { importSpans } from './import-spans.js';
export type { ImportResult } from './import-spans.js';
export {
  evaluationsFromOtlpJson,
  OtlpJsonError,
  readOtlpJson,
  spansFromOtlpJson,
} from './otlp-json.js';
export { fetchJaegerSpans, JaegerError, spansFromJaeger } from './jaeger.js';
export type { JaegerQuery, JaegerResponse } from './jaeger.js';
export type { ForeignSpan } from './foreign-span.js';
