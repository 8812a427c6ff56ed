import { requestSettings } from '../otlp/genai-request.js';
import { semconv } from '../otlp/semconv.js';
import { count, json, text, type ForeignSpan } from './foreign-span.js';

/**
 * What a chat span says of how its request was made: the model's settings, whether it streamed,
 * the server it went to; the inverse of what the export writes (`genai-request.ts`).
 */
export function requestOf(span: ForeignSpan): {
  settings?: Record<string, unknown>;
  stream?: boolean;
  server?: { address: string; port: number };
} {
  const settings: Record<string, unknown> = {};
  for (const [attribute, [name]] of requestSettings) {
    // Stop sequences are a string array (from Jaeger, which keeps arrays as JSON text, its JSON).
    const value =
      attribute === semconv.stopSequences ? json(span, attribute) : count(span, attribute);
    if (
      typeof value === 'number' ||
      (Array.isArray(value) && value.every(stop => typeof stop === 'string'))
    )
      settings[name] = value;
  }
  const stream = span.attributes[semconv.requestStream];
  const address = text(span, semconv.serverAddress);
  const port = count(span, semconv.serverPort);
  return {
    ...(Object.keys(settings).length === 0 ? {} : { settings }),
    ...(stream === true || stream === 'true' ? { stream: true } : {}),
    ...(address === undefined || port === undefined ? {} : { server: { address, port } }),
  };
}

/** A streamed call's time to its first chunk, in milliseconds, when the span says. */
export function firstChunkMsOf(span: ForeignSpan): number | undefined {
  const seconds = count(span, semconv.timeToFirstChunk);
  return seconds === undefined ? undefined : Math.round(seconds * 1000 * 1000) / 1000;
}
