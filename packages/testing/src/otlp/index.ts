export { decodeTraceRequest, startOtlpReceiver } from './otlp-receiver.js';
export type { OtlpReceiver, ReceivedSpan, ReceiverBehaviour } from './otlp-receiver.js';
