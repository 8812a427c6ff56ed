import { AgentTraceError, type ModelCallError } from '@agent-trace/core';

/** The marks the AI SDK tells its errors by (`APICallError.isInstance`), across its versions. */
const aiSdkErrorMark = Symbol.for('vercel.ai.error');
const apiCallErrorMark = Symbol.for('vercel.ai.error.AI_APICallError');

const isModelCallError = (error: unknown): error is ModelCallError =>
  AgentTraceError.isInstance(error) && (error as { name?: unknown }).name === 'ModelCallError';

/**
 * An agent-trace model's failure (a scripted 429, a provider's 5xx) as the AI SDK's own
 * `APICallError`: `isRetryable` and the status as the model said, a `retry-after` as the header
 * the SDK reads, the original error as its `cause`. So `generateText` and `streamText` retry it as
 * they retry a provider's (and give up on a 400 as they do). Made without importing the AI SDK:
 * its errors are told by the marks set here. Anything else is given back as it is.
 */
export function asApiCallError(error: unknown, url: string): unknown {
  if (!isModelCallError(error)) return error;
  const wrapped = new Error(error.message, { cause: error });
  wrapped.name = 'AI_APICallError';
  Object.assign(wrapped, {
    [aiSdkErrorMark]: true,
    [apiCallErrorMark]: true,
    url,
    requestBodyValues: {},
    statusCode: error.status,
    responseHeaders:
      error.retryAfterMs === undefined
        ? undefined
        : { 'retry-after-ms': String(error.retryAfterMs) },
    isRetryable: error.isRetryable,
  });
  return wrapped;
}
