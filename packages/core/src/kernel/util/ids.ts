/**
 * Where a run gets its ids from. Trace and span ids follow the W3C / OpenTelemetry shapes
 * (32 and 16 lower-case hex digits) so traces can be exported as OTLP spans unchanged.
 */
export interface IdGenerator {
  runId(): string;
  traceId(): string;
  spanId(): string;
  /** Ids for tool calls whose model gave none. */
  callId(): string;
}

import { hexOfUint32 } from './hex.js';

/**
 * `words` × 8 random hex digits. Ids need to be unique, not secret: like OpenTelemetry's
 * RandomIdGenerator this uses Math.random, which is many times cheaper than crypto per span.
 */
function randomHex(words: number): string {
  let text = '';
  for (let index = 0; index < words; index++) {
    text += hexOfUint32(Math.floor(Math.random() * 0x1_0000_0000));
  }
  return text;
}

/** Random ids: the default. */
export const randomIds: IdGenerator = Object.freeze({
  runId: () => globalThis.crypto.randomUUID(),
  traceId: () => randomHex(4),
  spanId: () => randomHex(2),
  callId: () => `call_${randomHex(2)}`,
});

/**
 * Ids that count up from 1 (`run-1`, `000…001`), for reproducible traces in tests.
 * Each generator counts on its own.
 */
export function sequentialIds(): IdGenerator {
  let runs = 0;
  let traces = 0;
  let spans = 0;
  let calls = 0;
  return {
    runId: () => `run-${++runs}`,
    traceId: () => (++traces).toString(16).padStart(32, '0'),
    spanId: () => (++spans).toString(16).padStart(16, '0'),
    callId: () => `call-${++calls}`,
  };
}
