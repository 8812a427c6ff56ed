import { traceSinkVersion, type TraceEvent, type TraceSink } from '@agent-trace/core';
import { memoryResumeLedger } from '@agent-trace/core/approval';

/** A sink that keeps events in memory: see {@link memorySink}. */
export interface MemorySink extends TraceSink {
  /** Every event written, in order (across runs, when shared). */
  readonly events: TraceEvent[];
  /** Forgets the events. */
  clear(): void;
}

/**
 * Keeps a run's events in an array: for tests and for inspecting a run in process. It keeps the
 * ledger of resumed states for its runs too: a state resumed twice into it goes on once.
 *
 * @example
 * ```ts
 * const sink = memorySink();
 * await run(triage, 'hi', { trace: sink });
 * sink.events.map(event => event.event); // ['run_start', 'agent_start', 'llm_start', …]
 * ```
 */
export function memorySink(): MemorySink {
  const events: TraceEvent[] = [];
  return {
    version: traceSinkVersion,
    events,
    resumeLedger: memoryResumeLedger(),
    write(event) {
      events.push(event);
    },
    flush: () => Promise.resolve(),
    clear() {
      events.length = 0;
    },
  };
}
