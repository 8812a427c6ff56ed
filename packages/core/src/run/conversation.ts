import type { Message } from '../model/message.js';
import type { Redactor } from '../redaction/redactor.js';
import type { TraceMessage } from '../trace/trace-event.js';
import { hashString } from '../util/hash.js';

/**
 * An agent's append-only message history. It keeps a rolling hash of everything appended, so a
 * request's fingerprint costs what is new, not the whole history, and it remembers how much the
 * model has already seen, so `llm_start` records only what is new.
 */
export class Conversation {
  readonly messages: Message[] = [];
  #rollingHash = hashString('');
  #sentCount = 0;
  readonly #redactor: Redactor | undefined;

  /** @param redactor - hashes are taken over redacted text, so a redacted recording replays. */
  constructor(redactor?: Redactor) {
    this.#redactor = redactor;
  }

  /** Appends one message. */
  append(message: Message): void {
    this.messages.push(message);
    const text = JSON.stringify(message);
    const hashed = this.#redactor === undefined ? text : this.#redactor.string(text);
    this.#rollingHash = hashString(`${this.#rollingHash}\n${hashed}`);
  }

  /** A hash of every message so far, combined with `preambleHash` (instructions and tools). */
  requestHash(preambleHash: string): string {
    return hashString(`${preambleHash}\n${this.#rollingHash}`);
  }

  /** The messages appended since the last call, as the trace records them; marks them sent. */
  takeUnsent(): TraceMessage[] {
    const unsent = this.messages.slice(this.#sentCount).map(toTraceMessage);
    this.#sentCount = this.messages.length;
    return unsent;
  }
}

/** A message in the trace's snake_case vocabulary. */
export function toTraceMessage(message: Message): TraceMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: message.toolCalls.map(call => ({
          call_id: call.callId,
          tool: call.toolName,
          arguments: call.argumentsText,
        })),
      };
    case 'tool':
      return {
        role: 'tool',
        call_id: message.callId,
        tool: message.toolName,
        content: message.content,
        is_error: message.isError,
      };
  }
}
