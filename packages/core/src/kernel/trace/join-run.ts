import type { LiveRun, LiveSpans, TraceSink } from './trace-sink.js';

/**
 * How the live sinks take a new run: the trace id it joins (the first valid one), the sinks that
 * follow its spans, and the ones its tools run in the context of.
 */
export function joinRun(
  sinks: readonly TraceSink[],
  run: { readonly runId: string; readonly name: string },
): {
  traceId: string | undefined;
  live: (readonly [TraceSink, LiveSpans])[];
  contexts: (readonly [LiveSpans, LiveRun | undefined])[];
} {
  const joined = {
    traceId: undefined as string | undefined,
    live: [] as (readonly [TraceSink, LiveSpans])[],
    contexts: [] as (readonly [LiveSpans, LiveRun | undefined])[],
  };
  for (const sink of sinks) {
    const listener = sink.live;
    if (listener === undefined) continue;
    let taken: LiveRun | undefined;
    try {
      taken = listener.runStarting?.(run);
    } catch {
      continue; // a sink that cannot take the run is left out of it
    }
    const traceId = taken?.traceId;
    if (joined.traceId === undefined && traceId !== undefined && /^[0-9a-f]{32}$/.test(traceId))
      joined.traceId = traceId;
    if (taken?.follow !== false) joined.live.push([sink, listener]);
    joined.contexts.push([listener, taken]);
  }
  return joined;
}
