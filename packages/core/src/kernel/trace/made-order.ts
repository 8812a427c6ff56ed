/** What {@link MadeOrder} stamps on an event as it is made. */
export interface MadeStamp {
  readonly spanId: string;
  readonly parentSpanId: string | null;
  /** Its place in the order the run made its events. */
  made?: number;
  /**
   * How many events the run had made when the turn it is the next event of decided, if others
   * came between.
   */
  decidedMade?: number;
}

/**
 * The order a run makes its events in, beside the order they are written in (`seq`): parts of a
 * run that go on side by side write to views of their own, committed part by part, so the trace
 * keeps where each event was made (`made`) and where each turn decided its steps
 * (`decided_made`), which a rerun replays.
 */
export class MadeOrder {
  /** How many events the run has made: held ones count when made, not when delivered. */
  #made: number;
  /** How many views hold events back, not yet committed. */
  #views = 0;
  /** The turns (by agent span) that decided a step whose next event is still to come: `made` then. */
  readonly #decisions = new Map<string, number>();

  /** @param start - the first event's place: a run that goes on from a pause goes on counting */
  constructor(start: number) {
    this.#made = start;
  }

  /** How many events the run has made: the place its next event takes. */
  get count(): number {
    return this.#made;
  }

  /** True while parts of the run go on side by side, each writing to a view of its own. */
  get sideBySide(): boolean {
    return this.#views > 0;
  }

  /** A view opened, or (`-1`) was committed. */
  views(change: 1 | -1): void {
    this.#views += change;
  }

  /** The turn of span `agentSpanId` decided a step: its next event takes the place. */
  decided(agentSpanId: string): void {
    this.#decisions.set(agentSpanId, this.#made);
  }

  /** Stamps an event as the run makes it. */
  stamp(event: MadeStamp): void {
    event.made = this.#made++;
    const decisions = this.#decisions;
    if (decisions.size === 0) return;
    // The first event under a turn's span (or its end) after the turn decided.
    const parent = event.parentSpanId;
    const span = parent !== null && decisions.has(parent) ? parent : event.spanId;
    const made = decisions.get(span);
    if (made === undefined) return;
    decisions.delete(span);
    if (made !== event.made) event.decidedMade = made;
  }
}
