import { hashedMessageJson, hashedMessagesJson, type Message } from '../../protocol/message.js';
import type { Redaction } from '../../trace/redaction.js';
import { toTraceMessage } from '../../protocol/trace-message.js';
import type { TraceMessage } from '../../protocol/trace-event.js';
import { hashString } from '../../util/hash.js';

/**
 * An agent's append-only message history. It keeps a rolling hash of the messages, folded in when
 * a hash is asked for (a run with no trace never pays for it), so a request's fingerprint costs
 * what is new, not the whole history; and it remembers how much the model has already seen, so
 * `llm_start` records only what is new.
 */
export class Conversation {
  readonly messages: Message[] = [];
  #rollingHash = hashString('');
  #hashedCount = 0;
  #sentCount = 0;
  /** The messages as the trace holds them, once a feature rewrote what the model was sent. */
  #traced: TraceMessage[] | undefined;
  readonly #redactor: Redaction | undefined;

  /** @param redactor - hashes are taken over redacted text, so a redacted recording replays. */
  constructor(redactor?: Redaction) {
    this.#redactor = redactor;
  }

  /** Appends one message. */
  append(message: Message): void {
    this.messages.push(message);
  }

  /** A hash of every message so far, combined with `preambleHash` (instructions and tools). */
  requestHash(preambleHash: string): string {
    return hashString(`${preambleHash}\n${this.messagesHash()}`);
  }

  /**
   * A hash of every message so far, alone. A message another conversation hashed after the same
   * hash (a turn's history, hashed by the turn before) is looked up, not hashed again, so a
   * conversation's turns cost what each adds, not their whole history.
   */
  messagesHash(): string {
    const memo = this.#redactor === undefined ? plainHashes : hashesAlike(this.#redactor.alike);
    for (; this.#hashedCount < this.messages.length; this.#hashedCount++) {
      const message = this.messages[this.#hashedCount] as Message;
      const known = memo?.get(message);
      if (known?.before === this.#rollingHash) {
        this.#rollingHash = known.after;
        continue;
      }
      const text = this.#hashable(hashedMessageJson(message));
      const after = hashString(`${this.#rollingHash}\n${text}`);
      memo?.set(message, { before: this.#rollingHash, after });
      this.#rollingHash = after;
    }
    return this.#rollingHash;
  }

  /** A hash of `messages` alone (a memory window: bounded, so hashed whole) with `preambleHash`. */
  windowHash(preambleHash: string, messages: readonly Message[]): string {
    return hashString(`${preambleHash}\n${this.#hashable(hashedMessagesJson(messages))}`);
  }

  /** A hash of the messages of a memory window, alone. */
  windowMessagesHash(messages: readonly Message[]): string {
    return hashString(this.#hashable(hashedMessagesJson(messages)));
  }

  /** Hashes are taken over redacted text, so a redacted recording replays with the same hashes. */
  #hashable(text: string): string {
    return this.#redactor === undefined ? text : this.#redactor.string(text);
  }

  /** Marks every message so far as sent, without building their trace form. */
  markSent(): void {
    this.#sentCount = this.messages.length;
  }

  /**
   * The messages so far are the run's history, which the trace holds (`run_start.history`): they
   * count as sent, and the request that first records messages says so (`from_history`).
   */
  startFromHistory(): void {
    this.markSent();
    if (this.messages.length > 0) this.#fromHistory = this.messages.length;
  }

  #fromHistory: number | undefined;

  /**
   * How many of the run's history's messages the request being recorded starts from, for the
   * first request that records messages; undefined after it, and when the trace holds no history.
   */
  takeFromHistory(): number | undefined {
    const count = this.#fromHistory;
    this.#fromHistory = undefined;
    return count;
  }

  /** The messages appended since the last call, as the trace records them; marks them sent. */
  takeUnsent(): TraceMessage[] {
    const unsent = this.messages.slice(this.#sentCount).map(toTraceMessage);
    this.#sentCount = this.messages.length;
    return unsent;
  }

  /** True once a feature rewrote what the model was sent: the trace holds its messages since. */
  get rewritten(): boolean {
    return this.#traced !== undefined;
  }

  /**
   * The messages of a request a feature rewrote, as the trace records them: how many of the
   * messages the trace holds so far it keeps (undefined: all), and those that follow.
   */
  takeSent(sent: TraceMessage[]): { messages: TraceMessage[]; kept: number | undefined } {
    const before = this.#traced ?? this.messages.slice(0, this.#sentCount).map(toTraceMessage);
    let kept = 0;
    while (
      kept < before.length &&
      kept < sent.length &&
      JSON.stringify(before[kept]) === JSON.stringify(sent[kept])
    )
      kept++;
    this.#traced = sent;
    this.#sentCount = this.messages.length;
    return { messages: sent.slice(kept), kept: kept === before.length ? undefined : kept };
  }
}

/** A message's rolling hash: the hash after it, and the hash before it that it was taken after. */
interface Hashed {
  readonly before: string;
  readonly after: string;
}

/** Each message's last rolling hash, for conversations hashed without redaction. */
const plainHashes = new WeakMap<Message, Hashed>();
/** The same, for each way of redacting (`Redaction.alike`). */
const redactedHashes = new WeakMap<object, WeakMap<Message, Hashed>>();

function hashesAlike(alike: object | undefined): WeakMap<Message, Hashed> | undefined {
  if (alike === undefined) return undefined;
  let memo = redactedHashes.get(alike);
  if (memo === undefined) redactedHashes.set(alike, (memo = new WeakMap()));
  return memo;
}
