import type { TraceEvent, TraceEventOf, TraceMessage } from './trace-event.js';

/**
 * The whole histories a trace's runs started from, read `run_start` by `run_start` in the order
 * they were written. A turn of a conversation records only what is new since its previous turn's
 * history (`conversation.carried`), so a trace grows with a conversation's turns, not with their
 * square; this joins them again. It keeps each conversation's last two turns (a turn may be taken
 * again after one that failed), for at most `limit` conversations, the least recently continued
 * forgotten first, so a reader of a live app's endless traces stays bounded.
 */
export class RunHistories {
  readonly #turns = new Map<string, readonly TraceMessage[]>();
  readonly #limit: number;

  /** @param limit - the most conversations kept. @defaultValue no limit */
  constructor(limit = Number.POSITIVE_INFINITY) {
    this.#limit = limit;
  }

  /**
   * The whole history `start`'s run started from (empty when it started afresh); undefined when it
   * goes on from a turn this reader has not read (a trace holding only part of a conversation).
   */
  of(start: TraceEventOf<'run_start'>): readonly TraceMessage[] | undefined {
    const own = start.history ?? [];
    const turn = start.conversation;
    if (turn === undefined) return own;
    let whole: readonly TraceMessage[] | undefined = own;
    if (turn.carried !== undefined) {
      const before = this.#turns.get(key(turn.id, turn.turn - 1));
      whole =
        before === undefined || before.length < turn.carried
          ? undefined
          : [...before.slice(0, turn.carried), ...own];
    }
    if (turn.role === undefined) this.#remember(turn.id, turn.turn, whole);
    return whole;
  }

  /**
   * `start` as it reads alone, taken out of its trace: a turn that goes on from its previous
   * turn's history gets the whole history and no `carried`; any other `run_start` is itself. A turn
   * whose previous turn this reader has not read is itself too (a rerun of it says what is missing).
   */
  whole(start: TraceEventOf<'run_start'>): TraceEventOf<'run_start'> {
    const history = this.of(start);
    return history === undefined ? start : standaloneStart(start, history);
  }

  #remember(id: string, turn: number, history: readonly TraceMessage[] | undefined): void {
    const at = key(id, turn);
    this.#turns.delete(at);
    this.#turns.delete(key(id, turn - 2));
    if (history === undefined) return;
    this.#turns.set(at, history);
    // Two turns a conversation: past the limit, the least recently continued goes.
    while (this.#turns.size > 2 * this.#limit) {
      const oldest = this.#turns.keys().next();
      if (oldest.done === true) break;
      this.#turns.delete(oldest.value);
    }
  }
}

const key = (id: string, turn: number): string => `${turn}\u0000${id}`;

/**
 * The whole history of the run `start` begins, from the trace `events` it is one of (read up to
 * it); undefined when it goes on from a turn the events do not hold.
 */
export function runHistory(
  events: readonly TraceEvent[],
  start: TraceEventOf<'run_start'>,
): readonly TraceMessage[] | undefined {
  if (start.conversation?.carried === undefined) return start.history ?? [];
  const histories = new RunHistories();
  for (const event of events) {
    if (event === start) break;
    if (event.event === 'run_start' && event.conversation?.id === start.conversation.id)
      histories.of(event);
  }
  return histories.of(start);
}

/**
 * `start` with `history`, its whole history, written in it: a turn that went on from its previous
 * turn's history (`conversation.carried`) as it reads alone, out of its trace. Any other
 * `run_start` is itself.
 */
export function standaloneStart(
  start: TraceEventOf<'run_start'>,
  history: readonly TraceMessage[],
): TraceEventOf<'run_start'> {
  const turn = start.conversation;
  if (turn?.carried === undefined) return start;
  const { carried: _joined, ...alone } = turn;
  const { history: _part, ...rest } = start;
  return {
    ...rest,
    ...(history.length === 0 ? {} : { history: [...history] }),
    conversation: alone,
  };
}
