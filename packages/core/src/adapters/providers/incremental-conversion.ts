import type { Message } from '../../kernel/protocol/message.js';

interface Converted<Param> {
  count: number;
  readonly params: Param[];
}

/**
 * Converts a conversation to a provider's message format once per message: for the loop's live,
 * append-only history, each call converts only the messages added since the previous call and
 * appends them to the list it keeps, so a long run's per-call conversion cost stays flat. Any other
 * array (a memory window) is converted whole, which its bound keeps cheap.
 */
export class IncrementalConverter<Param> {
  readonly #cache = new WeakMap<readonly Message[], Converted<Param>>();
  readonly #append: (params: Param[], message: Message) => void;

  /** @param append - converts one message onto the end of the list (it may merge with the last entry). */
  constructor(append: (params: Param[], message: Message) => void) {
    this.#append = append;
  }

  /** The provider-format list for `messages`. */
  convert(messages: readonly Message[]): Param[] {
    let converted = this.#cache.get(messages);
    if (converted === undefined || converted.count > messages.length) {
      converted = { count: 0, params: [] };
      this.#cache.set(messages, converted);
    }
    for (let index = converted.count; index < messages.length; index++) {
      this.#append(converted.params, messages[index] as Message);
    }
    converted.count = messages.length;
    return converted.params;
  }
}
