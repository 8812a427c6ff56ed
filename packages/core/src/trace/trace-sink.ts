import type { TraceEvent } from '../protocol/trace-event.js';

/**
 * Where trace events go: a JSONL file, memory, an OTLP exporter. A run calls `write` for every
 * event in seq order and awaits `flush` before it returns.
 */
export interface TraceSink {
  /**
   * Takes one event. Synchronous so that tracing never slows the loop down; a sink buffers and
   * writes in the background. A throw is caught, counted in `result.traceErrors` and never ends
   * the run.
   */
  write(event: TraceEvent): void;
  /** Resolves when every event written so far is stored. Called at the end of each run. */
  flush(): Promise<void>;
  /**
   * Called just before a run's `run_end` is written: a sink that exports elsewhere (OTLP) sends
   * what it holds, within its own time bound, and reports what it lost so far. The counts go into
   * `run_end.export`.
   */
  beforeSeal?(runId: string): Promise<SinkHealth | undefined>;
}

/** What an exporting sink lost: spans dropped (queue full, flush timed out) and spans it failed to send. */
export interface SinkHealth {
  readonly dropped: number;
  readonly failed: number;
  /** Spans sent but not yet confirmed when the sink's flush time ran out. */
  readonly pending?: number;
}

/** True when `value` looks like a {@link TraceSink}. */
export function isTraceSink(value: unknown): value is TraceSink {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<TraceSink>;
  return typeof candidate.write === 'function' && typeof candidate.flush === 'function';
}
