import { AsyncLocalStorage } from 'node:async_hooks';
import type { TracingProcessor } from '@openai/agents';
import { sdk } from '../openai-agents-model.js';
import {
  recordingProcessor,
  type AgentTraceProcessorOptions,
  type InputLearningProcessor,
} from './trace-processor.js';

/** The recorder of the work under way, in its async context. */
const recording = new AsyncLocalStorage<InputLearningProcessor>();
/** The recorder of each SDK trace started inside a `withAgentTrace`. */
const byTrace = new Map<string, InputLearningProcessor>();
let installed = false;

/** Forwards each SDK trace started inside a `withAgentTrace` to that call's recorder. */
const dispatcher: TracingProcessor = {
  onTraceStart(trace) {
    const recorder = recording.getStore();
    if (recorder === undefined) return Promise.resolve();
    byTrace.set(trace.traceId, recorder);
    return recorder.onTraceStart(trace);
  },
  onTraceEnd(trace) {
    const recorder = byTrace.get(trace.traceId);
    byTrace.delete(trace.traceId);
    return recorder?.onTraceEnd(trace) ?? Promise.resolve();
  },
  onSpanStart: span => byTrace.get(span.traceId)?.onSpanStart(span) ?? Promise.resolve(),
  onSpanEnd: span => byTrace.get(span.traceId)?.onSpanEnd(span) ?? Promise.resolve(),
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};

/**
 * Runs `work` and records only the SDK traces it starts (its `run` calls), into `options.trace`;
 * resolves with its result once the sinks have what it recorded. Unlike a processor added for the
 * process, calls may run at once, each recording its own runs: an eval's cases, a rerun. The SDK's
 * tracing is turned on. One processor is added to the SDK for the process, the first time: a later
 * `setTraceProcessors` drops it (use `addTraceProcessor` beside it).
 *
 * @example
 * ```ts
 * const result = await withAgentTrace({ trace: jsonlSink(file) }, () => run(triage, 'Is Oslo cold?'));
 * ```
 */
export async function withAgentTrace<T>(
  options: AgentTraceProcessorOptions,
  work: () => Promise<T> | T,
): Promise<T> {
  const peer = await sdk();
  if (!installed) {
    peer.addTraceProcessor(dispatcher);
    installed = true;
  }
  peer.setTracingDisabled(false);
  const recorder = recordingProcessor(options, true);
  try {
    return await recording.run(recorder, work);
  } catch (error) {
    // A run an input guardrail blocked shows its input nowhere but in the SDK's error.
    recorder.learnInput(error);
    throw error;
  } finally {
    await recorder.flush();
  }
}
