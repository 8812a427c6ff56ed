import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * The server-sent events of a `text/event-stream` body, in order, parsed by `eventsource-parser`.
 * The body is cancelled on the way out (a `return`, a throw by the consumer) without waiting, so a
 * body that never finishes cancelling cannot hold the reader.
 */
export async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<EventSourceMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: message => messages.push(message) });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      yield* messages.splice(0);
      if (done) return;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
