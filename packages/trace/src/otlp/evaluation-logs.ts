import type { Evaluation } from '@agent-trace/core';
import { defined } from '@agent-trace/core/util';
import { ROOT_CONTEXT, TraceFlags, trace, type Context } from '@opentelemetry/api';
import type { Logger, LogRecord } from '@opentelemetry/api-logs';
import { OTLPLogExporter as GrpcLogExporter } from '@opentelemetry/exporter-logs-otlp-grpc';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  type LogRecordExporter,
} from '@opentelemetry/sdk-logs';
import { bounded, httpSignalUrl, type OtlpSignalOptions } from './otlp-signal.js';
import { evaluationEvent, semconv } from './semconv.js';
import { feedbackByAttribute } from './judgment-evaluation.js';

/**
 * An evaluation as the GenAI conventions' `gen_ai.evaluation.result` event: a log record in the
 * context of the span it judges, with the scorer's name, score, label and explanation.
 */
export function evaluationRecord(evaluation: Evaluation): LogRecord & { context: Context } {
  const attributes: Record<string, string | number> = {};
  attributes[semconv.evaluationName] = evaluation.name;
  if (evaluation.score !== undefined) attributes[semconv.evaluationScoreValue] = evaluation.score;
  if (evaluation.label !== undefined) attributes[semconv.evaluationScoreLabel] = evaluation.label;
  if (evaluation.explanation !== undefined)
    attributes[semconv.evaluationExplanation] = evaluation.explanation;
  if (evaluation.responseId !== undefined) attributes[semconv.responseId] = evaluation.responseId;
  if (evaluation.by !== undefined) attributes[feedbackByAttribute] = evaluation.by;
  return {
    eventName: evaluationEvent,
    timestamp: evaluation.timeMs,
    attributes,
    context: trace.setSpanContext(ROOT_CONTEXT, {
      traceId: evaluation.traceId,
      spanId: evaluation.spanId,
      traceFlags: TraceFlags.SAMPLED,
    }),
  };
}

/** Emits evaluations through a logger (the application's, or {@link OtlpEvaluations}'). */
export function emitEvaluations(logger: Logger, evaluations: readonly Evaluation[]): void {
  for (const evaluation of evaluations) logger.emit(evaluationRecord(evaluation));
}

/** Where and how {@link OtlpEvaluations} sends. */
export interface OtlpEvaluationsOptions extends OtlpSignalOptions {
  /** The exporter to use instead of the OTLP one. */
  exporter?: LogRecordExporter;
}

function otlpLogExporter(options: OtlpEvaluationsOptions): LogRecordExporter {
  const { endpoint, protocol, headers, grpcMetadata, exportTimeoutMs } = options;
  if (endpoint === undefined) throw new Error('OtlpEvaluations needs an endpoint or an exporter.');
  if (protocol === 'http')
    return new ProtoLogExporter({
      url: httpSignalUrl(endpoint, 'logs'),
      timeoutMillis: exportTimeoutMs,
      ...defined('headers', headers),
    });
  return new GrpcLogExporter({
    url: endpoint,
    timeoutMillis: exportTimeoutMs,
    ...defined('metadata', grpcMetadata),
  });
}

/**
 * An OTLP sink's evaluation events: a log pipeline of its own to the same collector, made on the
 * first evaluation (a run that is never judged opens nothing), batched, and shut down with the sink.
 */
export class OtlpEvaluations {
  #provider: LoggerProvider | undefined;
  #logger: Logger | undefined;

  constructor(private readonly options: OtlpEvaluationsOptions) {}

  /** Sends each evaluation as a `gen_ai.evaluation.result` event, in the background. */
  emit(evaluations: readonly Evaluation[]): void {
    if (this.#logger === undefined) {
      this.#provider = new LoggerProvider({
        resource: this.options.resource,
        processors: [
          new BatchLogRecordProcessor({
            exporter: this.options.exporter ?? otlpLogExporter(this.options),
            exportTimeoutMillis: this.options.exportTimeoutMs,
          }),
        ],
      });
      this.#logger = this.#provider.getLogger('@agent-trace/trace');
    }
    emitEvaluations(this.#logger, evaluations);
  }

  /** Sends what is queued and closes, waiting at most until `deadline`; never rejects. */
  shutdown(deadline: number): Promise<void> {
    return this.#provider === undefined
      ? Promise.resolve()
      : bounded(this.#provider.shutdown(), deadline - Date.now());
  }
}
