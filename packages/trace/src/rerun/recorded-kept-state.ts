import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import { keptEventName, type RecordedKeptState } from '@agent-trace/core/features';

/**
 * What a recorded run read of its features' kept state (`<feature>.kept` events: a breaker that
 * other runs had opened, a shared budget they had spent), part by part: each call gives the next
 * part's reads (a resumed run has two parts), by feature, key and read. A part with none gives
 * undefined everywhere, so the rerun's features decide from their own steps.
 */
export function recordedKeptState(recorded: readonly TraceEvent[]): () => RecordedKeptState {
  const parts: Map<string, unknown>[] = [];
  for (const event of recorded) {
    if (event.event === 'run_start') parts.push(new Map());
    if (event.event !== 'feature' || event.name !== keptEventName) continue;
    const { key, read, value } = (event.data ?? {}) as {
      key?: unknown;
      read?: unknown;
      value?: unknown;
    };
    if (typeof key === 'string' && typeof read === 'number')
      parts.at(-1)?.set(readKey(event.feature, key, read), value);
  }
  let next = 0;
  return () => {
    const reads = parts[next++] ?? new Map<string, unknown>();
    return (feature, key, read) => reads.get(readKey(feature, key, read));
  };
}

const readKey = (feature: string, key: string, read: number): string =>
  `${feature}\n${key}\n${read}`;

/** True for an event that records a read of kept state: an input of the run, never compared. */
export function isKeptRead(event: TraceEvent): event is TraceEventOf<'feature'> {
  return event.event === 'feature' && event.name === keptEventName;
}
