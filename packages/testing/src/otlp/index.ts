export { decodeTraceRequest, startOtlpReceiver } from './otlp-receiver.js';
export type { OtlpReceiver, ReceivedSpan, ReceiverBehaviour } from './otlp-receiver.js';
export { decodeMetricsRequest } from './otlp-metrics.js';
export type { ReceivedMetric, ReceivedPoint } from './otlp-metrics.js';
export { decodeLogsRequest } from './otlp-logs.js';
export type { ReceivedLog } from './otlp-logs.js';
