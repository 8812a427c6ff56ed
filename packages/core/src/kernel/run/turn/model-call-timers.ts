import { ModelCallError } from '../../errors/model-call-error.js';
import { timerOn, type Clock } from '../../util/clock.js';

/** A time limit on one model call; when it is up it aborts the call's request. */
export interface CallTimer {
  /** Rejects with a retryable error when the time is up; never resolves. */
  readonly expired: Promise<never>;
  clear(): void;
}

/** The idle watch of a streamed model call: it fires when no part arrived for its time. */
export interface IdleWatch extends CallTimer {
  /** Something arrived: the silence starts again from now. */
  touch(): void;
}

/**
 * A model call's time limits and the one signal its request gets, which the run's signal, the
 * deadline and the idle watch all abort: one controller a call, not one a limit joined with
 * `AbortSignal.any`.
 */
export interface CallLimits {
  readonly signal: AbortSignal | undefined;
  readonly deadline: CallTimer | undefined;
  readonly idle: IdleWatch | undefined;
  /** Clears the timers and lets go of the run's signal. */
  clear(): void;
}

/**
 * The limits of one call of `modelId`: `modelTimeoutMs`, and `streamIdleTimeoutMs` when streamed,
 * on the run's clock (a rerun's recording says whether a recorded call ran out of time).
 */
export function callLimits(
  limits: {
    readonly modelTimeoutMs: number | undefined;
    readonly streamIdleTimeoutMs: number | undefined;
  },
  { streaming, modelId, clock }: { streaming: boolean; modelId: string; clock: Clock },
  run: AbortSignal | undefined,
): CallLimits {
  const idleMs = streaming ? limits.streamIdleTimeoutMs : undefined;
  if (limits.modelTimeoutMs === undefined && idleMs === undefined)
    return { signal: run, deadline: undefined, idle: undefined, clear: () => undefined };
  const controller = new AbortController();
  const deadline = createDeadline(limits.modelTimeoutMs, modelId, controller, clock);
  const idle = createIdleWatch(idleMs, modelId, controller, clock);
  const follow = () => controller.abort(run?.reason);
  if (run?.aborted === true) follow();
  else run?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    deadline,
    idle,
    clear: () => {
      deadline?.clear();
      idle?.clear();
      run?.removeEventListener('abort', follow);
    },
  };
}

/** `limits.modelTimeoutMs`: the whole call must answer within `timeoutMs`. */
function createDeadline(
  timeoutMs: number | undefined,
  modelId: string,
  controller: AbortController,
  clock: Clock,
): CallTimer | undefined {
  if (timeoutMs === undefined) return undefined;
  return createTimer(
    controller,
    clock,
    timeoutMs,
    () =>
      new ModelCallError({
        kind: 'timeout',
        message: `Model '${modelId}' did not answer within ${timeoutMs} ms (limits.modelTimeoutMs). The call is retried.`,
      }),
  );
}

/** `limits.streamIdleTimeoutMs`: a stream must send something at least every `idleMs`. */
function createIdleWatch(
  idleMs: number | undefined,
  modelId: string,
  controller: AbortController,
  clock: Clock,
): IdleWatch | undefined {
  if (idleMs === undefined) return undefined;
  return createTimer(
    controller,
    clock,
    idleMs,
    () =>
      new ModelCallError({
        kind: 'stream_interrupted',
        message: `Model '${modelId}' sent nothing on its stream for ${idleMs} ms (limits.streamIdleTimeoutMs); the request was cancelled and is retried. Raise the limit for models that think long before answering.`,
      }),
  );
}

function createTimer(
  controller: AbortController,
  clock: Clock,
  ms: number,
  failure: () => ModelCallError,
): IdleWatch {
  let restart: () => void = () => undefined;
  let clear: () => void = () => undefined;
  const expired = new Promise<never>((_, reject) => {
    const fire = (): void => {
      const error = failure();
      controller.abort(error);
      reject(error);
    };
    if (clock.timer === undefined) {
      // A real timer is refreshed in place as stream parts arrive.
      const timer = setTimeout(fire, ms);
      restart = () => timer.refresh();
      clear = () => clearTimeout(timer);
    } else {
      clear = timerOn(clock, ms, fire, 'model');
      restart = () => {
        clear();
        clear = timerOn(clock, ms, fire, 'model');
      };
    }
  });
  expired.catch(() => undefined);
  return { expired, touch: () => restart(), clear: () => clear() };
}
