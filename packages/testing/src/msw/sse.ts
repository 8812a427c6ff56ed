import { HttpResponse } from 'msw';

/** One server-sent event: an optional `event:` name and a JSON `data:` payload (or the raw `[DONE]`). */
export type SseFrame = { readonly event?: string; readonly data: unknown } | '[DONE]';

/** Encodes frames exactly as the providers do: `event: …\ndata: …\n\n`. */
export function encodeSse(frames: readonly SseFrame[]): string {
  return frames
    .map(frame =>
      frame === '[DONE]'
        ? 'data: [DONE]\n\n'
        : `${frame.event === undefined ? '' : `event: ${frame.event}\n`}data: ${JSON.stringify(frame.data)}\n\n`,
    )
    .join('');
}

const malformedChunk = 'data: {"choices": [ {oops\n\n';

/**
 * The streamed answer of a script step: its frames, then how a `cutAfterDeltas` step ends
 * (`cutAs`): nothing (a dropped connection), a chunk that is not JSON, or silence with the body
 * left open until the client cancels it.
 */
export function streamedAnswer(
  frames: readonly SseFrame[],
  step: { readonly cutAfterDeltas?: number; readonly cutAs?: string },
  split?: SplitPoints,
): HttpResponse<ReadableStream<Uint8Array>> {
  const cut = step.cutAfterDeltas === undefined ? undefined : (step.cutAs ?? 'dropped');
  const body = encodeSse(frames) + (cut === 'malformed_chunk' ? malformedChunk : '');
  return sseResponse(body, split, { open: cut === 'silence' });
}

/** Where to split a response body into network chunks: byte offsets, given the body's length. */
export type SplitPoints = (byteLength: number) => readonly number[];

/**
 * A streamed response whose body arrives in chunks cut at `split` (any byte, even inside a
 * multi-byte character or an event), as a real network may deliver it.
 */
export function sseResponse(
  body: string,
  split?: SplitPoints,
  {
    open = false,
  }: { /** Leave the body open after it, as a stream gone silent. */ open?: boolean } = {},
): HttpResponse<ReadableStream<Uint8Array>> {
  const bytes = new TextEncoder().encode(body);
  const points = (split?.(bytes.length) ?? []).filter(point => point > 0 && point < bytes.length);
  const cuts = [0, ...[...new Set(points)].sort((left, right) => left - right), bytes.length];
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let index = 0; index < cuts.length - 1; index++)
        controller.enqueue(bytes.slice(cuts[index], cuts[index + 1]));
      if (!open) controller.close();
    },
  });
  return new HttpResponse(stream, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  });
}
