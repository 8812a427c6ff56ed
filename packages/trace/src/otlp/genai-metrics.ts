import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import {
  createNoopMeter,
  metrics,
  type Attributes,
  type Counter,
  type Histogram,
  type MeterProvider,
} from '@opentelemetry/api';
import { genAiMetrics, providerName, semconv } from './semconv.js';

/** The attributes of a model call's metrics: the call's, and its input and output tokens'. */
interface CallAttributes {
  readonly call: Attributes;
  readonly input: Attributes;
  readonly output: Attributes;
}

/** The GenAI conventions' bucket boundaries of `gen_ai.client.token.usage`. */
export const tokenUsageBuckets: readonly number[] = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

/** The GenAI conventions' bucket boundaries of `gen_ai.client.operation.time_per_output_chunk` (s). */
export const timePerChunkBuckets = Object.freeze([
  0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5,
]);

/** The GenAI conventions' bucket boundaries of `gen_ai.client.operation.duration` (seconds). */
export const operationDurationBuckets: readonly number[] = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

const noopMeter = createNoopMeter();

/** True when `provider` is a real meter provider, not the API's no-op one. */
export function meterProviderRegistered(
  provider: MeterProvider = metrics.getMeterProvider(),
): boolean {
  return provider.getMeter('@agent-trace/trace').constructor !== noopMeter.constructor;
}

/**
 * The GenAI client metrics and agent-trace's own, recorded from a run's events through a meter
 * provider (the application's, by default):
 *
 * - `gen_ai.client.operation.duration` (s) and `gen_ai.client.token.usage` (`{token}`, one
 *   record per `gen_ai.token.type`) per model call, with the conventions' buckets and
 *   `gen_ai.operation.name`, `gen_ai.provider.name`, `gen_ai.request.model` (and `error.type`);
 * - `agent_trace.tool.duration` (s) per tool call, by `gen_ai.tool.name` (and `error.type`);
 * - `agent_trace.runs` (`{run}`), counted by `agent_trace.stop_reason`.
 */
export class GenAiMetrics {
  readonly #operationDuration: Histogram;
  readonly #tokenUsage: Histogram;
  readonly #timeToFirstChunk: Histogram;
  readonly #timePerOutputChunk: Histogram;
  readonly #toolDuration: Histogram;
  readonly #runs: Counter;
  readonly #callAttributes = new Map<string, CallAttributes>();

  constructor(provider: MeterProvider = metrics.getMeterProvider()) {
    const meter = provider.getMeter('@agent-trace/trace', '0.1.0');
    this.#operationDuration = meter.createHistogram(genAiMetrics.operationDuration, {
      description: 'GenAI operation duration.',
      unit: 's',
      advice: { explicitBucketBoundaries: [...operationDurationBuckets] },
    });
    this.#tokenUsage = meter.createHistogram(genAiMetrics.tokenUsage, {
      description: 'Number of input and output tokens used.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: [...tokenUsageBuckets] },
    });
    this.#timeToFirstChunk = meter.createHistogram(genAiMetrics.timeToFirstChunk, {
      description: 'Time to receive the first chunk of a streamed answer.',
      unit: 's',
      advice: { explicitBucketBoundaries: [...operationDurationBuckets] },
    });
    this.#timePerOutputChunk = meter.createHistogram(genAiMetrics.timePerOutputChunk, {
      description: 'Time between the chunks of a streamed answer, after the first.',
      unit: 's',
      advice: { explicitBucketBoundaries: [...timePerChunkBuckets] },
    });
    this.#toolDuration = meter.createHistogram('agent_trace.tool.duration', {
      description: 'How long a tool call took, its retries apart.',
      unit: 's',
      advice: { explicitBucketBoundaries: [...operationDurationBuckets] },
    });
    this.#runs = meter.createCounter('agent_trace.runs', {
      description: 'Runs ended, by stop reason.',
      unit: '{run}',
    });
  }

  /** Records what an end event measures; other events are ignored. */
  record(event: TraceEvent): void {
    switch (event.event) {
      case 'llm_end': {
        const sets = this.#attributesOf(event);
        this.#operationDuration.record(event.duration_ms / 1000, sets.call);
        if (event.error !== undefined) return;
        this.#tokenUsage.record(event.tok_prompt, sets.input);
        this.#tokenUsage.record(event.tok_completion, sets.output);
        this.#streamTimes(event, sets.call);
        return;
      }
      case 'tool_end': {
        const attributes: Attributes = { [semconv.toolName]: event.tool };
        if (event.error !== undefined) attributes['error.type'] = event.error.type;
        this.#toolDuration.record(event.duration_ms / 1000, attributes);
        return;
      }
      case 'run_end':
        this.#runs.add(1, {
          'agent_trace.stop_reason': event.stop_reason,
          [semconv.workflowName]: event.agent,
        });
        return;
      default:
    }
  }

  /**
   * A model call's attribute sets (the call's, and its input and output tokens'), made once per
   * provider, model and error type: a metric per call then allocates nothing.
   */
  #attributesOf(event: TraceEventOf<'llm_end'>): CallAttributes {
    const key = `${event.provider}\u0000${event.model}\u0000${event.error?.status ?? event.error?.type ?? ''}`;
    let sets = this.#callAttributes.get(key);
    if (sets === undefined) {
      const call: Attributes = {};
      call[semconv.operationName] = 'chat';
      call[semconv.providerName] = providerName(event.provider);
      call[semconv.requestModel] = event.model;
      if (event.error !== undefined)
        call[semconv.errorType] =
          event.error.status === undefined ? event.error.type : String(event.error.status);
      const input: Attributes = { ...call };
      input[semconv.tokenType] = 'input';
      const output: Attributes = { ...call };
      output[semconv.tokenType] = 'output';
      sets = { call, input, output };
      // A bound on what an unbounded set of models could keep.
      if (this.#callAttributes.size >= 1_000) this.#callAttributes.clear();
      this.#callAttributes.set(key, sets);
    }
    return sets;
  }

  /** A streamed call's time to its first chunk, and its mean time per chunk after the first. */
  #streamTimes(event: TraceEventOf<'llm_end'>, attributes: Attributes): void {
    const first = event.first_chunk_ms;
    if (first === undefined) return;
    this.#timeToFirstChunk.record(first / 1000, attributes);
    const chunks = event.chunks ?? 0;
    if (chunks > 1)
      this.#timePerOutputChunk.record(
        Math.max(0, event.duration_ms - first) / (chunks - 1) / 1000,
        attributes,
      );
  }
}
