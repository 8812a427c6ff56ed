import type { IdGenerator } from './ids.js';

/**
 * The span ids a run has drawn so far, as its paused state keeps them: the first, and how many.
 * A resumed part of the run draws after them.
 */
export interface DrawnIds {
  readonly firstSpanId: string;
  readonly spans: number;
}

/** An id generator that counts the span ids it gives, so a pause can say what was drawn. */
export interface CountedIds extends IdGenerator {
  /** What this run has drawn, the parts before a resume included; undefined before any span. */
  drawn(): DrawnIds | undefined;
}

/**
 * `ids`, counted. A part that goes on from a pause (`before`: what the parts before it drew)
 * continues after them: when its generator starts over (a new process's `sequentialIds()` gives
 * the paused part's first id again), the ids the paused part used are drawn and passed over, so
 * no span id of the run is given twice. A generator that goes on by itself (random ids, the same
 * counting one) is left to go on.
 */
export function countedIds(ids: IdGenerator, before?: DrawnIds): CountedIds {
  let first = before?.firstSpanId;
  let spans = before?.spans ?? 0;
  let checked = before === undefined;
  const spanId = (): string => {
    let id = ids.spanId();
    if (!checked) {
      checked = true;
      if (id === before?.firstSpanId)
        for (let drawn = 1; drawn <= before.spans; drawn++) id = ids.spanId();
    }
    first ??= id;
    spans++;
    return id;
  };
  return {
    runId: () => ids.runId(),
    traceId: () => ids.traceId(),
    callId: () => ids.callId(),
    spanId,
    drawn: () => (first === undefined ? undefined : { firstSpanId: first, spans }),
  };
}
