import { RunAbortedError } from '../errors/abort-error.js';

/**
 * Resolves or rejects like `promise`, but rejects with a {@link RunAbortedError} as soon as
 * `signal` fires, so a model or tool that ignores its signal cannot hold a run hostage.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(new RunAbortedError({ reason: signal.reason }));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new RunAbortedError({ reason: signal.reason }));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      value => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Throws a {@link RunAbortedError} when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new RunAbortedError({ reason: signal.reason });
}
