import type * as AgentsSdk from '@openai/agents';
import type { AgentTraceProcessor } from '../record/trace-processor.js';

/**
 * Runs `work` with the SDK's spans going to `processor` too. The SDK keeps its processors for the
 * process and has no way to take one out: the processor added forwards only while `work` runs,
 * then falls silent.
 */
export async function recordingTo<T>(
  peer: typeof AgentsSdk,
  processor: AgentTraceProcessor,
  work: () => Promise<T> | T,
): Promise<T> {
  let active = true;
  const forward =
    <A>(call: (arg: A) => Promise<void>) =>
    (arg: A) =>
      active ? call(arg) : Promise.resolve();
  peer.addTraceProcessor({
    onTraceStart: forward(trace => processor.onTraceStart(trace)),
    onTraceEnd: forward(trace => processor.onTraceEnd(trace)),
    onSpanStart: forward(span => processor.onSpanStart(span)),
    onSpanEnd: forward(span => processor.onSpanEnd(span)),
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
  });
  try {
    return await work();
  } finally {
    active = false;
  }
}
