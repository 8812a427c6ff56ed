import type { Agent } from '../kernel/agent/agent.js';
import { ConfigurationError } from '../kernel/errors/configuration-error.js';
import type { Chunk } from '../kernel/protocol/chunk.js';
import {
  openRunState,
  runLoop,
  type RunResult,
  type RunStateSnapshot,
} from '../kernel/run/frame/runner-api.js';
import type { ResumeOptions, RunOptions } from './run-options.js';
import { standardFeatures } from './standard-features.js';

/** The stream of a run: iterate it for chunks; `result` resolves when the run has ended. */
export interface RunStream<Output = string> extends AsyncIterable<Chunk> {
  /**
   * The run's result, once its trace is flushed. Awaiting it without iterating runs the stream to
   * the end and drops the chunks.
   */
  readonly result: Promise<RunResult<Output>>;
}

/**
 * Runs an agent to the end and returns its result. Never throws for what happens during the run:
 * limits, model failures and aborts end it with a `stopReason` (and `error`). Throws a
 * `ConfigurationError` for a bad argument before anything runs.
 *
 * @example
 * ```ts
 * const result = await run(triage, 'I was charged twice', { trace: jsonlSink('traces/run.jsonl') });
 * result.output; result.stopReason; result.usage; result.steps;
 * ```
 */
export function run<Output = string>(
  agent: Agent<Output>,
  input: string,
  options: RunOptions = {},
): Promise<RunResult<Output>> {
  return drainToResult(
    runLoop({
      agent,
      input,
      options,
      streaming: false,
      features: options.features ?? standardFeatures,
    }),
  ) as Promise<RunResult<Output>>;
}

/**
 * Runs an agent, streaming its chunks (`delta`, `tool_call`, `tool_response`, `usage`, `error`) as
 * they happen. The model is called in streaming mode; the trace and the result are the same as
 * {@link run}'s. Stopping the iteration early aborts the run: it ends with `aborted` and its trace
 * is still complete and sealed.
 *
 * @example
 * ```ts
 * const s = stream(triage, 'hi', { trace: memorySink() });
 * for await (const chunk of s) if (chunk.type === 'delta') process.stdout.write(chunk.data.text);
 * const result = await s.result;
 * ```
 */
export function stream<Output = string>(
  agent: Agent<Output>,
  input: string,
  options: RunOptions = {},
): RunStream<Output> {
  const stopper = new AbortController();
  const signal =
    options.signal === undefined
      ? stopper.signal
      : AbortSignal.any([options.signal, stopper.signal]);
  const loop = runLoop({
    agent,
    input,
    options: { ...options, signal },
    streaming: true,
    features: options.features ?? standardFeatures,
  });
  let started = false;
  let settle!: { resolve: (result: RunResult<Output>) => void; reject: (error: unknown) => void };
  const result = new Promise<RunResult<Output>>(
    (resolve, reject) => (settle = { resolve, reject }),
  );
  result.catch(() => undefined);
  async function* iterate(): AsyncGenerator<Chunk, void, undefined> {
    let finished = false;
    try {
      for (;;) {
        const next = await loop.next();
        if (next.done === true) {
          finished = true;
          settle.resolve(next.value as RunResult<Output>);
          return;
        }
        yield next.value;
      }
    } catch (error) {
      finished = true;
      settle.reject(error);
      throw error;
    } finally {
      if (!finished) {
        // The consumer stopped reading: abort the run and let it close its spans and seal the trace.
        stopper.abort('the stream consumer stopped reading');
        await drainToResult(loop).then(
          value => settle.resolve(value as RunResult<Output>),
          settle.reject,
        );
      }
    }
  }
  const claim = (): AsyncGenerator<Chunk, void, undefined> => {
    if (started) {
      throw new ConfigurationError({
        option: 'stream',
        message:
          'This run stream is already being read: a stream can be iterated once. Call stream() again for a new run.',
      });
    }
    started = true;
    return iterate();
  };
  return {
    [Symbol.asyncIterator]: claim,
    get result(): Promise<RunResult<Output>> {
      if (!started) {
        started = true;
        void drainToResult(loop).then(
          value => settle.resolve(value as RunResult<Output>),
          settle.reject,
        );
      }
      return result;
    },
  };
}

async function drainToResult(
  loop: AsyncGenerator<Chunk, RunResult<unknown>, undefined>,
): Promise<RunResult<unknown>> {
  for (;;) {
    const next = await loop.next();
    if (next.done === true) return next.value;
  }
}

/**
 * Goes on with a run paused for approval, from its `state`, with a decision for every pending
 * call: approved calls run, rejected ones are answered as refused (the model reads the reason),
 * edited ones run with the new arguments. The run keeps its id, session and trace id, and its
 * seq runs on from the pause, so a trace holding both parts validates as one run. Works in any
 * process: pass the same agent graph (the state names its agents). A state of another version,
 * or one that was changed, is refused with a `ConfigurationError`.
 *
 * A state goes on once: its use is claimed in a ledger (`resumeLedger`; by default beside the
 * run's JSONL trace, in its memory sink, or in the process) before anything runs, and a second
 * resume throws a `StateAlreadyResumedError` naming the first. `fork: true` goes on from the same
 * pause as a new run instead, without using the state up.
 *
 * @example
 * ```ts
 * const paused = await run(desk, 'Refund order 42');
 * writeFileSync('state.json', JSON.stringify(paused.state));
 * // later, anywhere:
 * const state = JSON.parse(readFileSync('state.json', 'utf8'));
 * const result = await resume(desk, state, { decisions: [{ callId: paused.interruptions[0].callId, decision: 'approve', by: 'ana' }] });
 * ```
 */
export async function resume<Output = string>(
  agent: Agent<Output>,
  state: RunStateSnapshot | string,
  options: ResumeOptions,
): Promise<RunResult<Output>> {
  const opened = await openRunState(state, options.decisions ?? [], options.stateSecret);
  return drainToResult(
    runLoop({
      agent,
      input: opened.run.input,
      options,
      streaming: false,
      features: options.features ?? standardFeatures,
      resumed: { state: opened, decisions: options.decisions ?? [] },
    }),
  ) as Promise<RunResult<Output>>;
}
