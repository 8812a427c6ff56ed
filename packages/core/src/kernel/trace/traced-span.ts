import type { SpanStartName } from '../protocol/trace-event.js';

/**
 * A span a tracer opened: open until that tracer ends it. The span knows its tracer and whether it
 * is open, where a set of the open spans made every start and end hash the span.
 */
export class TracedSpan<Name extends SpanStartName = SpanStartName> {
  /** What the span is open in (what every view of its run's tracer shares); unset once ended. */
  #openIn: object | undefined;

  constructor(
    readonly name: Name,
    readonly spanId: string,
    readonly parentSpanId: string | null,
    readonly agent: string,
    readonly startMs: number,
    openIn: object,
  ) {
    this.#openIn = openIn;
  }

  /** Whether `span` is open in `run` (a span of another run never is). */
  static isOpen(span: object, run: object): span is TracedSpan {
    return #openIn in span && span.#openIn === run;
  }

  /** Ends `span` in `run`: false when it was not open there (ended already, or another run's). */
  static close(span: object, run: object): boolean {
    if (!TracedSpan.isOpen(span, run)) return false;
    span.#openIn = undefined;
    return true;
  }
}
