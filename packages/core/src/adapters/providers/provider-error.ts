import { ModelCallError } from '../../kernel/errors/model-call-error.js';
import { defined } from '../../kernel/util/defined.js';
import { saysUsedUpQuota } from './sse-json.js';

interface SdkErrorShape {
  name?: unknown;
  status?: unknown;
  headers?: unknown;
  message?: unknown;
  error?: unknown;
}

function header(headers: unknown, name: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (typeof (headers as Headers).get === 'function')
    return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP date), in milliseconds. */
export function retryAfterMs(headers: unknown, nowMs = Date.now()): number | undefined {
  const milliseconds = header(headers, 'retry-after-ms');
  if (milliseconds !== undefined && Number.isFinite(Number(milliseconds)))
    return Number(milliseconds);
  const after = header(headers, 'retry-after');
  if (after === undefined) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * Maps an error thrown by an official SDK client (OpenAI, Anthropic) to a typed
 * {@link ModelCallError}: 429 → rate limit (with retry-after), 408 and time-outs → timeout,
 * 5xx and overloaded → server (retryable); a used-up quota (a 429 or a stream's error event that
 * says `insufficient_quota`) → quota_exceeded, 404 → not_found, 400/401/403 → not retryable, with
 * the provider's message. An error that arrives inside a stream (no status) is a server failure, retryable.
 * The loop decides retries: SDK clients run with `maxRetries: 0`.
 */
export function toModelCallError(error: unknown, provider: string): unknown {
  if (ModelCallError.isInstance(error) || typeof error !== 'object' || error === null) return error;
  const shape = error as SdkErrorShape;
  // The SDKs' error classes keep `name` as 'Error'; their class names tell them apart.
  const className = (error as { constructor?: { name?: unknown } }).constructor?.name;
  const name =
    typeof className === 'string' && className !== 'Error'
      ? className
      : typeof shape.name === 'string'
        ? shape.name
        : '';
  const message = typeof shape.message === 'string' ? shape.message : 'no message';
  if (name === 'APIUserAbortError' || name === 'AbortError') return error;
  if (name === 'APIConnectionTimeoutError') {
    return new ModelCallError({
      kind: 'timeout',
      message: `${provider} did not answer in time: ${message}`,
      cause: error,
    });
  }
  if (name === 'APIConnectionError') {
    return new ModelCallError({
      kind: 'server',
      message: `${provider} could not be reached: ${message}`,
      cause: error,
    });
  }
  // The SDKs' API errors carry the body's code and type, and the body in `error`.
  if (saysUsedUpQuota(error)) {
    return new ModelCallError({
      kind: 'quota_exceeded',
      ...(typeof shape.status === 'number' ? { status: shape.status } : {}),
      message: `${provider} refused the call: the account's quota is used up (${message}). Retrying will not help: add credit or raise the quota, or use another key.`,
      cause: error,
    });
  }
  if (typeof shape.status === 'number') {
    const status = shape.status;
    const kind = status === 529 ? 'server' : ModelCallError.kindForStatus(status);
    const wait = retryAfterMs(shape.headers);
    return new ModelCallError({
      kind,
      status,
      ...defined('retryAfterMs', wait),
      message: `${provider} answered ${status}: ${message}`,
      cause: error,
    });
  }
  if (name.endsWith('Error') && 'error' in shape) {
    return new ModelCallError({
      kind: 'server',
      message: `${provider} failed mid-stream: ${message}`,
      cause: error,
    });
  }
  return error;
}
