import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * The server-sent events of a `text/event-stream` body, in order, parsed by `eventsource-parser`.
 * A consumer that leaves early (a `return` at the stream's last event, a throw) usually leaves a
 * body that has ended already: its end is read if it is there within one turn of the event loop,
 * and otherwise the body is cancelled without waiting, so a body that never ends, or never
 * finishes cancelling, cannot hold the reader. (Cancelling a body that has ended still aborts its
 * fetch, which costs more than reading the end.)
 */
export async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<EventSourceMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: message => messages.push(message) });
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      ended = done;
      yield* messages.splice(0);
      if (done) return;
    }
  } finally {
    if (!ended && !(await endsWithinATurn(reader))) reader.cancel().catch(() => undefined);
  }
}

/** True when the body's end is read within one turn of the event loop (nothing more came). */
async function endsWithinATurn(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<boolean> {
  const turn = new Promise<false>(resolve => setImmediate(resolve, false));
  const next = reader.read().then(
    result => result.done,
    () => false,
  );
  return Promise.race([next, turn]);
}
