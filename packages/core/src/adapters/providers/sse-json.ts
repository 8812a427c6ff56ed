import type { EventSourceMessage } from 'eventsource-parser';
import { ModelCallError } from '../../kernel/errors/model-call-error.js';
import { serverSentEvents } from '../../kernel/util/server-sent-events.js';

/** One server-sent event of a provider's stream, its data parsed as JSON. */
export interface SseJsonEvent {
  /** The `event:` field, when the server named one. */
  readonly event: string | undefined;
  readonly data: unknown;
}

const shownChars = 120;

/**
 * Reads a provider's `text/event-stream` response as JSON events, ending at `[DONE]` or at the end
 * of the body. A chunk that is not JSON ends the call with a retryable `server` error that shows
 * the chunk; an error event (`event: error`, or data carrying an `error` object) ends it with the
 * provider's message. The body is cancelled on the way out without waiting, so a body that never
 * finishes cancelling cannot hold the model call.
 *
 * The official SDKs parse the same stream themselves, but a malformed chunk makes them wait on the
 * body's cancellation, which for some bodies never settles: the run would hang.
 */
export async function* readSseJson(
  response: Response,
  provider: string,
): AsyncGenerator<SseJsonEvent, void, undefined> {
  if (response.body === null) return;
  for await (const message of serverSentEvents(response.body as ReadableStream<Uint8Array>)) {
    if (message.data.startsWith('[DONE]')) return;
    yield { event: message.event, data: parseData(message, provider) };
  }
}

function parseData(message: EventSourceMessage, provider: string): unknown {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch (error) {
    const shown =
      message.data.length > shownChars ? `${message.data.slice(0, shownChars)}…` : message.data;
    throw new ModelCallError({
      kind: 'server',
      message: `${provider} sent a stream chunk that is not JSON (${(error as Error).message}): ${JSON.stringify(shown)}. The call is retried.`,
      cause: error,
    });
  }
  const failure = streamedError(message.event, data);
  if (failure !== undefined) {
    // A used-up quota can come as an error event of a 200 stream: no retry makes it pass.
    if (saysUsedUpQuota(data))
      throw new ModelCallError({
        kind: 'quota_exceeded',
        message: `${provider} refused the call mid-stream: the account's quota is used up (${failure}). Retrying will not help: add credit or raise the quota, or use another key.`,
      });
    throw new ModelCallError({
      kind: 'server',
      message: `${provider} failed mid-stream: ${failure}`,
    });
  }
  return data;
}

function streamedError(event: string | undefined, data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const error = (data as { error?: unknown }).error;
  if (event !== 'error' && (typeof error !== 'object' || error === null)) return undefined;
  const detail = (typeof error === 'object' && error !== null ? error : data) as {
    message?: unknown;
    type?: unknown;
  };
  const message = typeof detail.message === 'string' ? detail.message : 'no message';
  return typeof detail.type === 'string' ? `${detail.type}: ${message}` : message;
}

/** True when a stream's event (or its `error` object) has the code or type `insufficient_quota`. */
export function saysUsedUpQuota(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const own = data as { code?: unknown; type?: unknown; error?: unknown };
  if (own.code === 'insufficient_quota' || own.type === 'insufficient_quota') return true;
  return own.error !== data && saysUsedUpQuota(own.error);
}
