export { decodeTraceRequest, startOtlpReceiver } from './otlp-receiver.js';
export type { OtlpReceiver, ReceivedSpan, ReceiverBehaviour } from './otlp-receiver.js';
export { decodeMetricsRequest } from './otlp-metrics.js';
export type { ReceivedMetric, ReceivedPoint } from './otlp-metrics.js';
