import type { TraceEvent } from '@agent-trace/core';
import { memorySink, type MemorySink } from '../memory-sink.js';
import { recordedEvents, Recording } from './recording.js';
import { rerunReport, type RerunReport } from './rerun-trace.js';

/**
 * An agent of another framework as its bridge wraps it (`aiSdkAgent` of `@agent-trace/ai-sdk`):
 * it reruns itself against a recording, so `agent-trace rerun --agent` takes a module exporting
 * one without knowing the framework.
 */
export interface BridgedAgent {
  /** The framework, e.g. `ai-sdk`. */
  readonly framework: string;
  readonly rerun: (
    trace: readonly TraceEvent[] | string,
    options: { readonly liveTools?: boolean; readonly runId?: string },
  ) => Promise<RerunReport<unknown>>;
}

/** True when `value` is a {@link BridgedAgent}. */
export function isBridgedAgent(value: unknown): value is BridgedAgent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { framework?: unknown }).framework === 'string' &&
    typeof (value as { rerun?: unknown }).rerun === 'function'
  );
}

/**
 * Reruns another framework's agent against a recording: reads the recording, lets `rerun` run
 * today's code with it, recording the new run into `sink` (and waiting until it is stored), and
 * compares the two runs. An error today's code throws is the rerun's result; the comparison
 * shows where it diverged.
 *
 * @param trace - the recorded events, or the path of a JSONL trace (its first run is rerun, or the
 *   one `runId` names)
 */
export async function rerunBridged(
  trace: readonly TraceEvent[] | string,
  rerun: (recording: Recording, sink: MemorySink) => Promise<unknown>,
  runId?: string,
): Promise<RerunReport<unknown>> {
  const all = await recordedEvents(trace);
  const recording = new Recording(all, runId);
  const sink = memorySink();
  let result: unknown;
  try {
    result = await rerun(recording, sink);
  } catch (error) {
    result = error;
  }
  return rerunReport(recording.events, sink.events, result);
}
