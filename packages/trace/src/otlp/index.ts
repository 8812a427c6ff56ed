export {
  otlpEndpointFromEnvironment,
  otlpProtocolFromEnvironment,
  otlpSink,
  otlpSinkFromEnvironment,
} from './otlp-sink.js';
export type { OtlpSink, OtlpSinkOptions, OtlpSinkStats } from './otlp-sink.js';
export { finishReason, genAiMetrics, ownAttributes, providerName, semconv } from './semconv.js';
export { SpanBuilder, spanHead } from './span-builder.js';
export type { SpanMappingOptions } from './span-builder.js';
export { otelSink } from './otel-sink.js';
export {
  feedbackByAttribute,
  feedbackEvaluation,
  judgmentEvaluation,
} from './judgment-evaluation.js';
export type { OtelSinkOptions } from './otel-sink.js';
export {
  GenAiMetrics,
  meterProviderRegistered,
  operationDurationBuckets,
  tokenUsageBuckets,
} from './genai-metrics.js';
export {
  environmentOtlpSink,
  environmentSinks,
  registerEnvironmentExport,
} from './environment-sink.js';
