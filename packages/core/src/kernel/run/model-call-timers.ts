import { ModelCallError } from '../errors/model-call-error.js';

/** A time limit on one model call, with the signal that cancels its request. */
export interface CallTimer {
  readonly signal: AbortSignal;
  /** Rejects with a retryable error when the time is up; never resolves. */
  readonly expired: Promise<never>;
  clear(): void;
}

/** The idle watch of a streamed model call: it fires when no part arrived for its time. */
export interface IdleWatch extends CallTimer {
  /** Something arrived: the silence starts again from now. */
  touch(): void;
}

/** `limits.modelTimeoutMs`: the whole call must answer within `timeoutMs`. */
export function createDeadline(
  timeoutMs: number | undefined,
  modelId: string,
): CallTimer | undefined {
  if (timeoutMs === undefined) return undefined;
  return createTimer(
    timeoutMs,
    () =>
      new ModelCallError({
        kind: 'timeout',
        message: `Model '${modelId}' did not answer within ${timeoutMs} ms (limits.modelTimeoutMs). The call is retried.`,
      }),
  );
}

/** `limits.streamIdleTimeoutMs`: a stream must send something at least every `idleMs`. */
export function createIdleWatch(
  idleMs: number | undefined,
  modelId: string,
): IdleWatch | undefined {
  if (idleMs === undefined) return undefined;
  return createTimer(
    idleMs,
    () =>
      new ModelCallError({
        kind: 'stream_interrupted',
        message: `Model '${modelId}' sent nothing on its stream for ${idleMs} ms (limits.streamIdleTimeoutMs); the request was cancelled and is retried. Raise the limit for models that think long before answering.`,
      }),
  );
}

function createTimer(ms: number, failure: () => ModelCallError): IdleWatch {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = failure();
      controller.abort(error);
      reject(error);
    }, ms);
  });
  expired.catch(() => undefined);
  return {
    signal: controller.signal,
    expired,
    touch: () => timer?.refresh(),
    clear: () => clearTimeout(timer),
  };
}

/** One signal that fires when any of the given ones does. */
export function combineSignals(
  ...signals: readonly (AbortSignal | undefined)[]
): AbortSignal | undefined {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (present.length <= 1) return present[0];
  return AbortSignal.any(present);
}
